import { M } from "./messages";
import { msg, type Msg } from "./message";
import { parseApiAmount, MAX_AMOUNT_CENTS, formatCents } from "./money";
import { memoProblem } from "./amount";
import { PAY_PATH } from "./paths";

/**
 * What a QR code carries (docs/spec.md §3 "QR payload for receiving"), in Monujo's exact JSON so codes
 * scan both ways: `rp` the requester's member id, `rpb` their wallet id, and for a payment
 * request `amount` (2-decimal string) and the two memos. Ours add `rq`, the id of the payment
 * request on the server: Mutua clients pay that request (paid once, refused when expired
 * or cancelled), while Monujo and older clients, which ignore the field, pay it as a plain request.
 */
export interface QrPayload {
  rp: number;
  rpb: string;
  amount?: string;
  senderMemo?: string | null;
  recipientMemo?: string | null;
  /** The server's payment request (`rq` in the code and the link); only with an amount. */
  requestId?: string;
  /**
   * The payee's server, as an origin (`srv` in the code; a link's own origin): a member of
   * another, linked association pays across (docs/federation.md). Absent from Monujo's codes,
   * which then mean the scanning app's own server.
   */
  server?: string;
  /**
   * The marketplace's offer this pays (never in a code or a link: the offer's page opens the
   * payment with it): the amount and memo are filled in, not fixed, and the payment names the offer.
   */
  offerId?: string;
}

/** A payment request's public id, as the server makes them (PaymentRequestId of the contract). */
const REQUEST_ID = /^pr_[\w-]{22}$/;

export const isPaymentRequest = (p: QrPayload): p is QrPayload & { amount: string } => typeof p.amount === "string";

export function encodeQrPayload(p: QrPayload): string {
  // The server goes last, after Monujo's fields, so a code without it is byte for byte Monujo's.
  const srv = p.server ? { srv: p.server } : {};
  const base = { rp: p.rp, rpb: p.rpb };
  if (!isPaymentRequest(p)) return JSON.stringify({ ...base, ...srv });
  const request = { ...base, amount: p.amount, senderMemo: p.senderMemo ?? null, recipientMemo: p.recipientMemo ?? null };
  return JSON.stringify(p.requestId ? { ...request, rq: p.requestId, ...srv } : { ...request, ...srv });
}

/** The longest server a code may name: an origin, never a long URL that would crowd the code. */
const MAX_SERVER_LENGTH = 300;

/** A server named by a code, reduced to its origin; null when it is not an http(s) URL. */
export function serverOrigin(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_SERVER_LENGTH) return null;
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) ? url.origin : null;
  } catch {
    return null;
  }
}

/** The fields of a payment link's query, after `first`. */
function linkQuery(p: QrPayload, first: Record<string, string> = {}): URLSearchParams {
  const q = new URLSearchParams({ ...first, rp: String(p.rp), rpb: p.rpb });
  if (isPaymentRequest(p)) {
    q.set("amount", p.amount);
    if (p.senderMemo) q.set("senderMemo", p.senderMemo);
    if (p.recipientMemo) q.set("recipientMemo", p.recipientMemo);
    if (p.requestId) q.set("rq", p.requestId);
  }
  return q;
}

/** The path of the payment link: a URL of the app carrying the same fields, for phones' own camera apps. */
export function paymentLink(origin: string, p: QrPayload): string {
  // No srv here: the link's own origin is the payee's server (linkFields reads it back).
  return `${origin.replace(/\/+$/, "")}${PAY_PATH}?${linkQuery(p)}`;
}

/**
 * The app at `origin` ("" for a path of this one) paying a member of another, linked association
 * (docs/federation.md): the payment link's fields, with the payee's server as `across` (a name apart
 * from the codes' `srv`, which a link never takes from its query). One format for every way there:
 * a code of that association scanned here, and its payment link's page offering its visitor this
 * app (linkFields reads it back).
 */
export function payAcrossLink(origin: string, p: QrPayload & { server: string }): string {
  return `${origin.replace(/\/+$/, "")}${PAY_PATH}?${linkQuery(p, { across: p.server })}`;
}

export type QrResult = { ok: true; payload: QrPayload } | { ok: false; error: Msg };

const invalid: QrResult = { ok: false, error: msg(M.qrInvalidFormat) };

/** Checks the fields of a payload, whichever way it came (JSON or link). */
export function validatePayload(raw: Record<string, unknown>): QrResult {
  const rp = typeof raw.rp === "number" ? raw.rp : typeof raw.rp === "string" && /^\d{1,15}$/.test(raw.rp) ? Number(raw.rp) : NaN;
  if (!Number.isSafeInteger(rp) || rp <= 0) return invalid;
  if (typeof raw.rpb !== "string" || raw.rpb.length === 0 || raw.rpb.length > 200) return invalid;
  const payload: QrPayload = { rp, rpb: raw.rpb };
  if (raw.srv !== undefined && raw.srv !== null) {
    // Only an origin: a code names which server to ask, never a path on it.
    const server = serverOrigin(raw.srv);
    if (!server) return invalid;
    payload.server = server;
  }
  if (raw.amount !== undefined && raw.amount !== null) {
    // Monujo writes amounts with exactly two decimals; a number is accepted when it says the same.
    const text = typeof raw.amount === "number" ? raw.amount.toFixed(2) : raw.amount;
    const cents = typeof text === "string" ? parseApiAmount(text) : null;
    if (cents === null || cents <= 0n || cents > MAX_AMOUNT_CENTS) return invalid;
    payload.amount = formatCents(cents);
    for (const key of ["senderMemo", "recipientMemo"] as const) {
      const v = raw[key];
      if (v === undefined || v === null) payload[key] = null;
      // The memo rules of a typed payment: a code cannot smuggle a line break or an override in.
      else if (typeof v === "string" && !memoProblem(v)) payload[key] = v;
      else return invalid;
    }
    // A request id is ours to check strictly: a code cannot send the payer's app to any other path.
    if (raw.rq !== undefined && raw.rq !== null) {
      if (typeof raw.rq !== "string" || !REQUEST_ID.test(raw.rq)) return invalid;
      payload.requestId = raw.rq;
    }
  }
  return { ok: true, payload };
}

/**
 * Reads scanned content (docs/spec.md §5 "QR scan"): nothing read → 'Unable to read QR code'; not JSON
 * (nor a payment link) → 'Invalid QR code content format'; the member's own id → 'You can not
 * transfer money to your own account'. Member ids are per server: the same number on another
 * association's code is someone else, so it is refused only when the code names no server or
 * the app's own (`ownOrigin`).
 */
export function decodeQrContent(content: string | null | undefined, myId: number, ownOrigin?: string): QrResult {
  if (content === null || content === undefined || content.trim() === "") return { ok: false, error: msg(M.qrUnreadable) };
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch {
    raw = linkFields(content);
    if (!raw) return invalid;
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return invalid;
  const r = validatePayload(raw as Record<string, unknown>);
  const own = ownOrigin ? serverOrigin(ownOrigin) : null;
  const elsewhere = r.ok && r.payload.server !== undefined && r.payload.server !== own;
  if (r.ok && r.payload.rp === myId && !elsewhere) return { ok: false, error: msg(M.qrOwnAccount) };
  return r;
}

/** The fields of a payment link, or null when the text is not one. */
export function linkFields(text: string): Record<string, string> | null {
  try {
    const url = new URL(text.trim());
    if (!/^https?:$/.test(url.protocol) || !url.pathname.endsWith(PAY_PATH) || !url.searchParams.has("rp")) return null;
    // The link's own origin is the payee's server, whatever a srv parameter might claim; but an
    // app's address for paying across (`across`, its own parameter) pays a member of the
    // association it names: read as its own origin, it would pay this server's member of that number.
    return { ...Object.fromEntries(url.searchParams.entries()), srv: url.searchParams.get("across") ?? url.origin };
  } catch {
    return null;
  }
}

/** A file name safe on every file system: no separators, reserved or control characters, bounded length. */
export function safeFileName(name: string, ext: string): string {
  const cleaned = name
    .normalize("NFKC")
    // Control characters are exactly what a file name must not hold.
    // oxlint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[. ]+$/, "")
    .slice(0, 120);
  return `${cleaned || "file"}.${ext}`;
}
