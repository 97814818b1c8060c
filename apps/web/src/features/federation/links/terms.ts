import { formatUnitValue, msg, parseUnitValue, type FederationLink, type FederationTerms, type Msg } from "@mutua/domain";
import { NOT_AN_AMOUNT, parseTypedAmount } from "../../association";

/**
 * The pure part of the links' console (docs/federation.md): one side's terms as a form and back,
 * the rate they make, a fingerprint as it is read aloud, and where a link stands.
 */

/** One side's terms as typed: the values and the trust limit in the language's decimal mark. */
export interface TermsForm {
  ourValue: string;
  theirValue: string;
  trustLimit: string;
  enabled: boolean;
}

/** Errors under the fields, keyed as the server names them ("terms.ourValue", "code"). */
export type FieldErrors = Record<string, Msg>;

/** What a new link starts from: the same value on both sides, and some trust. */
export const DEFAULT_TERMS: FederationTerms = { ourValue: "1", theirValue: "1", trustLimit: "100.00", enabled: true };

/** Said under a currency's value that is not one. */
export const NOT_A_VALUE = msg("Type a positive number with at most 4 decimals, such as 1 or 1.25.");

/** Said under the invitation's code when it is empty or cut short. */
export const CODE_MISSING = msg("Paste the whole code the other association sent you.");

/** Terms put in the form, each decimal as the language writes it (`decimal`: fmt.amountInput). */
export const termsFormOf = (t: FederationTerms, decimal: (text: string) => string): TermsForm => ({
  ourValue: decimal(t.ourValue),
  theirValue: decimal(t.theirValue),
  trustLimit: decimal(t.trustLimit),
  enabled: t.enabled,
});

/**
 * The terms the inviting side starts from when it confirms: the other side's own values turned
 * round (their currency's value is their "ours"), so that the two count the same rate unless the
 * owner changes them.
 */
export const confirmDefaults = (link: FederationLink): FederationTerms =>
  link.terms ?? (link.peerTerms ? { ...DEFAULT_TERMS, ourValue: link.peerTerms.theirValue, theirValue: link.peerTerms.ourValue } : DEFAULT_TERMS);

/** A currency's value as typed ("1,25", " 2 ") as the API writes it ("1.25"), or null. */
export function parseValue(raw: string): string | null {
  const v = parseUnitValue(raw.trim().replace(",", "."));
  return v === null ? null : formatUnitValue(v);
}

export type TermsResult = { ok: true; terms: FederationTerms } | { ok: false; errors: FieldErrors };

/** The form as the API's terms, or the errors under its fields. */
export function termsOf(form: TermsForm): TermsResult {
  const errors: FieldErrors = {};
  const ourValue = parseValue(form.ourValue);
  const theirValue = parseValue(form.theirValue);
  const trustLimit = parseTypedAmount(form.trustLimit);
  if (ourValue === null) errors["terms.ourValue"] = NOT_A_VALUE;
  if (theirValue === null) errors["terms.theirValue"] = NOT_A_VALUE;
  if (trustLimit === null) errors["terms.trustLimit"] = NOT_AN_AMOUNT;
  if (ourValue === null || theirValue === null || trustLimit === null) return { ok: false, errors };
  return { ok: true, terms: { ourValue, theirValue, trustLimit, enabled: form.enabled } };
}

/**
 * How much one unit of the first currency is worth in the second, given each one's value in the
 * common unit ("1.25", "1" → "1.25"), rounded half up to at most 4 decimals; counted in
 * ten-thousandths, never as a float. Null where a value is not one.
 */
export function rateText(from: string, to: string): string | null {
  const a = parseUnitValue(from);
  const b = parseUnitValue(to);
  if (a === null || b === null) return null;
  return formatUnitValue((a * 10_000n * 2n + b) / (2n * b));
}

/** "3f2a9c…" as it is read aloud: groups of four digits. */
export const groupFingerprint = (fp: string) => fp.replace(/(.{4})(?=.)/g, "$1 ");

/** Where a link stands, as the console says it. */
export type LinkStatus = "invited" | "waitingForThem" | "toConfirm" | "linked" | "off" | "offByThem" | "replaced" | "ended";

export function linkStatus(link: FederationLink): LinkStatus {
  if (link.state === "invited") return "invited";
  if (link.state === "replaced") return "replaced";
  if (link.state === "ended") return "ended";
  if (link.state === "accepted") return link.waitingFor === "us" ? "toConfirm" : "waitingForThem";
  if (link.terms && !link.terms.enabled) return "off";
  if (link.peerTerms && !link.peerTerms.enabled) return "offByThem";
  return "linked";
}
