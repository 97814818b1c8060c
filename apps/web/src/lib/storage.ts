/** What the app keeps on the device (docs/spec.md §3 "Local settings", "Persistent store key: loginEmail"). */
export interface LocalSettings {
  biometryEnabled?: boolean;
  language?: string | null;
}

const KEYS = {
  localSettings: "mutua.localSettings",
  loginEmail: "mutua.loginEmail",
  authConfig: "mutua.authConfig",
  biometry: "mutua.biometry",
} as const;

/** The signed-in member's last known accounts and transactions (lib/offline-cache.ts). */
export const OFFLINE_CACHE_KEY = "mutua.offlineCache";

/** A JSON value kept on the device, or null (none, unreadable, or storage refused). */
export function read<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? null : (JSON.parse(raw) as T);
  } catch {
    return null;
  }
}

export function write(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* private mode or full storage: the setting just does not persist */
  }
}

export const getLocalSettings = (): LocalSettings => read<LocalSettings>(KEYS.localSettings) ?? {};
export const setLocalSettings = (patch: Partial<LocalSettings>) => write(KEYS.localSettings, { ...getLocalSettings(), ...patch });
export const getLoginEmail = (): string => read<string>(KEYS.loginEmail) ?? "";
export const setLoginEmail = (email: string) => write(KEYS.loginEmail, email);

/**
 * docs/spec.md §3 "Auth config per wallet id": this device's PIN record of each wallet, or null. It
 * survives sign-out (it is a device setting), and alone it opens nothing: see @mutua/wallet pin.ts.
 */
export const getAuthConfig = (): Record<string, unknown> => read<Record<string, unknown>>(KEYS.authConfig) ?? {};
export function setAuthConfig(walletId: string, value: unknown): void {
  const all = getAuthConfig();
  if (value === null) delete all[walletId];
  else all[walletId] = value;
  write(KEYS.authConfig, all);
}

/** docs/spec.md §3 "Biometry store": the passkey this device registered for login, by credential id. */
export interface BiometryStore {
  hasCredentials?: { login?: string };
}
export const getBiometry = (): BiometryStore => read<BiometryStore>(KEYS.biometry) ?? {};
export const setBiometry = (v: BiometryStore) => write(KEYS.biometry, v);

let stopKeepingOffline: (() => void) | null = null;
/** Set by lib/offline-cache.ts, which the login page does not load: how to stop writing the cache. */
export const onForgetOfflineCache = (stop: () => void) => {
  stopKeepingOffline?.();
  stopKeepingOffline = stop;
};
/** On sign-out: the member's data must not stay on the device. */
export function forgetOfflineCache(): void {
  stopKeepingOffline?.();
  stopKeepingOffline = null;
  try {
    localStorage.removeItem(OFFLINE_CACHE_KEY);
  } catch {
    /* storage unavailable: nothing was kept */
  }
}
