import type { Msg } from "./message";
import { M } from "./messages";

/** docs/spec.md §5 "PIN" and 9: exactly 4 digits. */
export const PIN_LENGTH = 4;
/** Wrong PINs the server accepts for one PIN before it disables it (Monujo had no limit). */
export const PIN_MAX_FAILURES = 5;

/** What a PIN field keeps of typed or pasted text: digits only, at most 4. */
export const pinInput = (text: string): string => text.replace(/\D/g, "").slice(0, PIN_LENGTH);

export const isPin = (pin: string): boolean => new RegExp(`^\\d{${PIN_LENGTH}}$`).test(pin);

/** The PIN editor's messages: the PIN, then its confirmation (shown once the PIN is complete). */
export function pinProblems(pin: string, confirm: string): { pin?: Msg; confirm?: Msg } {
  if (!isPin(pin)) return { pin: { id: M.pinLength } };
  if (confirm !== pin) return { confirm: { id: M.pinsDifferent } };
  return {};
}
