/**
 * The arithmetic of links between associations (docs/federation.md), pure: each currency's value
 * against the common unit is a decimal of at most 4 places, counted here in ten-thousandths
 * (bigint), never as a float. And the names another association's server gives, checked as this
 * one checks its own.
 */
import { SYMBOL_MAX } from "./association-setup";
import { hasDeceptiveNameCharacters, NAME_MAX, normalizeName } from "./names";

/**
 * The refusal of a payment across whose amounts were worked out at a rate that changed since
 * (SM.federationRateChanged): the app that hears it asks for a new quote. Named here, apart from
 * SM, so that the paying screen's chunk knows it without carrying the server's other messages.
 */
export const FEDERATION_RATE_CHANGED = "The rate changed since this amount was worked out: please look at the new amount.";

/** "1.25" → 12500n (ten-thousandths); null when it is not a positive decimal of at most 4 places. */
export function parseUnitValue(text: string): bigint | null {
  const m = /^(\d{1,6})(?:\.(\d{1,4}))?$/.exec(text);
  if (!m) return null;
  const value = BigInt(m[1]!) * 10_000n + BigInt((m[2] ?? "").padEnd(4, "0"));
  return value > 0n ? value : null;
}

/** 12500n → "1.25": the shortest decimal that reads back the same. */
export function formatUnitValue(e4: bigint): string {
  const whole = e4 / 10_000n;
  const part = (e4 % 10_000n).toString().padStart(4, "0").replace(/0+$/, "");
  return part ? `${whole}.${part}` : `${whole}`;
}

/** One side's values: its own currency's and the other's, in ten-thousandths of the common unit. */
export interface UnitValues {
  ours: bigint;
  theirs: bigint;
}

/**
 * Whether two sides count the same rate: this side's rate of its unit in the other's is
 * ours/theirs, the other side's of the same is its theirs/ours; equal when cross-multiplied.
 */
export const valuesAgree = (mine: UnitValues, peer: UnitValues): boolean => mine.ours * peer.ours === mine.theirs * peer.theirs;

/**
 * An amount of one currency in another, given each one's value in the common unit: `cents` of
 * the first is worth `cents × fromValue / toValue` of the second, rounded half to even to the
 * cent (a tie goes to the even cent, so that over many payments neither side gains from the
 * rounding). Integers only: each side posts a whole number of its own cents, and its ledger
 * balances in its own currency.
 */
export function convertCents(cents: bigint, fromValue: bigint, toValue: bigint): bigint {
  if (cents < 0n || fromValue <= 0n || toValue <= 0n) throw new RangeError("convertCents: a non-negative amount and positive values");
  const numerator = cents * fromValue;
  const quotient = numerator / toValue;
  const twice = (numerator % toValue) * 2n;
  if (twice > toValue || (twice === toValue && quotient % 2n === 1n)) return quotient + 1n;
  return quotient;
}

/** One unit of a currency of value `from` in a currency of value `to` (values in ten-thousandths), to at most 4 decimals, half up. */
export const unitRate = (from: bigint, to: bigint): string => formatUnitValue((from * 10_000n * 2n + to) / (2n * to));

/** The most quotes or payments one request to a linked server carries (sent together while the link is busy). */
export const PEER_BATCH_MAX = 32;

/** The longest name of an association, as setup and the settings allow it. */
export const PEER_ASSOCIATION_NAME_MAX = NAME_MAX;
/** The longest name of a currency, likewise. */
export const PEER_CURRENCY_NAME_MAX = 40;
/** The longest name of another association's member: a first name and a last name as long as members' own may be, and the space between. */
export const PEER_MEMBER_NAME_MAX = 2 * NAME_MAX + 1;

/**
 * A name another association's server gives (its association's, its currency's, one of its
 * members'), as this server stores and shows it; null when this server would not take it from a
 * member of its own: empty, longer than `max`, holding a control character or one that makes it
 * display other than it reads (a direction override, a zero-width character: names.ts). The
 * characters are judged on the text as sent; it is kept as members' names are (NFC, ordinary
 * spaces, none at either end).
 */
export function peerName(raw: string, max: number): string | null {
  // A name many times too long is refused before any pattern runs over all of it.
  if (raw.length > 4 * max) return null;
  const name = normalizeName(raw);
  if (name === "" || name.length > max || /\p{Cc}/u.test(name) || hasDeceptiveNameCharacters(raw)) return null;
  return name;
}

/** Another server's currency symbol, by the rules of this one's own (setup's, the settings'): a name of at most 8 characters, without spaces. */
export function peerCurrencySymbol(raw: string): string | null {
  const symbol = peerName(raw, SYMBOL_MAX);
  return symbol !== null && !/\s/.test(symbol) ? symbol : null;
}
