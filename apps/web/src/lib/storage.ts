/** What the app keeps on the device (spec 3 "Local settings", "Persistent store key: loginEmail"). */
export interface LocalSettings {
  biometryEnabled?: boolean;
  language?: string | null;
}

const KEYS = { localSettings: "mutua.localSettings", loginEmail: "mutua.loginEmail" } as const;

function read<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? null : (JSON.parse(raw) as T);
  } catch {
    return null;
  }
}

function write(key: string, value: unknown): void {
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
