import { M, decodeQrContent, linkFields, msg, type QrResult } from "@mutua/domain";

/** Said of a web address pasted to pay that is not a payment link. */
export const NOT_A_PAYMENT_LINK = msg("This is not a payment link. Paste the whole link you were sent to pay.");

/**
 * What the recipient search holds when it is a web address: a payment link pasted there, as its
 * code would be scanned (this association's member, or another association's to pay across,
 * docs/federation.md), checked as a scanned code is; or why it cannot be paid. Null for anything
 * else (a name, an e-mail address, a phone number), which is searched.
 */
export function pastedLink(text: string, myId: number, ownOrigin: string): QrResult | null {
  const t = text.trim();
  if (!/^https?:\/\//i.test(t)) return null;
  if (!linkFields(t)) return { ok: false, error: NOT_A_PAYMENT_LINK };
  const r = decodeQrContent(t, myId, ownOrigin);
  // A scanned code's format error, said of a link, would puzzle: the link is then not a payment's.
  return r.ok || r.error.id === M.qrOwnAccount ? r : { ok: false, error: NOT_A_PAYMENT_LINK };
}
