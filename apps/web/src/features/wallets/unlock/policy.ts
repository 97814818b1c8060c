import type { LocalAuthPolicy } from "@mutua/domain";

/** How a wallet is unlocked on this device (docs/spec.md §3 localAuthPolicy, default Retention 900 s over Pin). */
export interface AuthPolicy {
  /** How long an unlocked key is kept in memory from its entry; null keeps nothing. */
  retentionSeconds: number | null;
  /** "pin" lets members set a PIN per wallet (Preferences); "password" always asks the wallet password. */
  method: "pin" | "password";
}

export const DEFAULT_RETENTION_SECONDS = 900;

/** Reads Monujo's policy format: ["Retention", {time, subConfig}], ["Pin", {}] or ["Direct", {}]. */
export function readPolicy(policy: LocalAuthPolicy | unknown): AuthPolicy {
  if (!Array.isArray(policy) || typeof policy[0] !== "string") return { retentionSeconds: DEFAULT_RETENTION_SECONDS, method: "pin" };
  const [kind, options] = policy as [string, Record<string, unknown> | undefined];
  if (kind === "Retention") {
    const time = Number(options?.time);
    const sub = readPolicy(options?.subConfig ?? ["Pin", {}]);
    return { retentionSeconds: Number.isFinite(time) && time > 0 ? time : DEFAULT_RETENTION_SECONDS, method: sub.method };
  }
  if (kind === "Pin") return { retentionSeconds: null, method: "pin" };
  if (kind === "Direct") return { retentionSeconds: null, method: "password" };
  return { retentionSeconds: DEFAULT_RETENTION_SECONDS, method: "pin" };
}
