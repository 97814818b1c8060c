/**
 * The words of a server's key rotation (docs/federation.md "Key rotation and revocation"), pure:
 * what the new key signs to prove that whoever announces it holds it, and a fingerprint as an
 * owner types it after hearing it read aloud.
 */

/**
 * The text a server's new key signs when the server announces it to `receiver` (that server's
 * address, as the announcing side's link holds it), the announcement itself being signed by
 * `oldKey`: the proof binds the new key to this announcement's old key and to this receiver, so
 * that it proves nothing anywhere else. Keys as their base64url raw form (a signature's keyid).
 */
export const keyRotationProofText = (p: { receiver: string; oldKey: string; newKey: string }): string =>
  `mutua-federation/1 new key\nfor: ${p.receiver}\nold: ${p.oldKey}\nnew: ${p.newKey}`;

/** How many hex digits a fingerprint has (the key's SHA-256, its first 128 bits). */
export const FINGERPRINT_DIGITS = 32;

/**
 * A fingerprint as an owner typed it, heard aloud: spaces, colons and dashes between the groups
 * left out, capitals taken as small letters. Null when it is not 32 hex digits.
 */
export function typedFingerprint(text: string): string | null {
  const compact = text.replace(/[\s:.-]+/g, "").toLowerCase();
  return new RegExp(`^[0-9a-f]{${FINGERPRINT_DIGITS}}$`).test(compact) ? compact : null;
}
