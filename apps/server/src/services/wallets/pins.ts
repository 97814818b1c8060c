import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { ErrorCode, M, PIN_MAX_FAILURES } from "@mutua/domain";
import { inTransaction, type Db } from "../../db/pool";
import { Refusal, notFound } from "../platform/errors";
import type { Settings } from "../../settings";
import { hit } from "../platform/rate-limit";
import { getOwnWallet } from "./wallets";

const digest = (hex: string) => createHash("sha256").update(Buffer.from(hex, "hex")).digest();

/** Registers a PIN for one of the member's ledger wallets on one device; returns its device secret. */
export async function createPin(db: Db, me: bigint, walletId: string, verifier: string) {
  const wallet = await getOwnWallet(db, me, walletId);
  if (!wallet || !wallet.address) throw notFound();
  const secret = randomBytes(32);
  const { rows } = await db.query<{ id: string }>("INSERT INTO pins (member_id, wallet_id, verifier, device_secret) VALUES ($1, $2, $3, $4) RETURNING id", [
    me,
    wallet.id,
    digest(verifier),
    secret,
  ]);
  return { pinId: rows[0]!.id, deviceSecret: secret.toString("hex") };
}

/**
 * Checks a PIN proof. Right: the device secret, and the failures start again from zero. Wrong:
 * one more failure; the fifth deletes the PIN, and the member must use the wallet password.
 * The row is locked while it is checked, so parallel guesses are counted one by one, on every
 * server instance.
 */
export async function openPin(db: Db, s: Settings, me: bigint, ip: string, pinId: string, proof: string): Promise<{ deviceSecret: string }> {
  await hit(db, `pin:ip:${ip}`, s.limits.pinPerIp);
  await hit(db, `pin:member:${me}`, s.limits.pinPerMember);
  type Outcome = { deviceSecret: string } | { attemptsLeft: number } | null;
  const outcome = await inTransaction<Outcome>(db, async (tx) => {
    const { rows } = await tx.query<{ verifier: Buffer; device_secret: Buffer; failures: number }>(
      "SELECT verifier, device_secret, failures FROM pins WHERE id = $1 AND member_id = $2 FOR UPDATE",
      [pinId, me],
    );
    const pin = rows[0];
    if (!pin) return null;
    if (timingSafeEqual(pin.verifier, digest(proof))) {
      await tx.query("UPDATE pins SET failures = 0, last_used_at = now() WHERE id = $1", [pinId]);
      return { deviceSecret: pin.device_secret.toString("hex") };
    }
    const failures = pin.failures + 1;
    // Throwing here would roll the count back: the refusal leaves the transaction as a value.
    if (failures >= PIN_MAX_FAILURES) {
      await tx.query("DELETE FROM pins WHERE id = $1", [pinId]);
      return null;
    }
    await tx.query("UPDATE pins SET failures = $2 WHERE id = $1", [pinId, failures]);
    return { attemptsLeft: PIN_MAX_FAILURES - failures };
  });
  if (outcome === null) throw new Refusal(ErrorCode.pinDisabled, { id: M.pinDisabled });
  if ("attemptsLeft" in outcome) throw new Refusal(ErrorCode.wrongPin, { id: M.authFailed, values: { attemptsLeft: outcome.attemptsLeft } });
  return outcome;
}

export async function deletePin(db: Db, me: bigint, pinId: string): Promise<void> {
  const { rowCount } = await db.query("DELETE FROM pins WHERE id = $1 AND member_id = $2", [pinId, me]);
  if (!rowCount) throw notFound();
}
