import {
  EMAIL_MAX,
  MAX_AMOUNT_CENTS,
  MAX_AMOUNT_TEXT,
  NAME_MAX,
  isValidEmail,
  nameProblem,
  normalizeEmail,
  normalizeName,
  normalizePhone,
  phoneProblem,
  renderMsg,
  M,
} from "@mutua/domain";

/**
 * The cells of an imported file, as people type them in a spreadsheet, to what Mutua stores.
 * Each reader returns the value or the reason it was refused, in words its author can act on;
 * none of them throws.
 */

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const refused = <T>(reason: string): Parsed<T> => ({ ok: false, reason });

/** Lower case, no accents, runs of spaces as one: how headers and keywords are compared. */
export const fold = (s: string): string =>
  s
    .normalize("NFKD")
    .replace(/[\p{M}\uFEFF]/gu, "")
    .toLowerCase()
    .replace(/\s+/gu, " ")
    .trim();

// ---------------------------------------------------------------------------------------------
// Amounts

export type DecimalSeparator = "," | ".";

/** Only ever between groups of three digits: spaces of every width, and the Swiss apostrophe. */
const GROUP_SPACES = /[\s'\u2019]/gu;
const CURRENCY_AT_END = /\s*(?:\p{Sc}|[A-Z]{2,5})$/u;
const CURRENCY_AT_START = /^(?:\p{Sc}|[A-Z]{2,5})\s*/u;
const SIGN = /^([+\-\u2212])\s*/u;
const BODY = /^\d(?:[\d.,\s'\u2019]*\d)?$/u;

const count = (s: string, ch: string): number => s.split(ch).length - 1;

/**
 * An amount to cents, exactly (bigint, never a float): "1 234,50", "1.234,50", "1,234.50",
 * "1234.50", "-12,5", "+3,00", "12". Thousands may be grouped by spaces (no-break and narrow
 * no-break included), apostrophes, or whichever of `.` and `,` is not the decimal separator, and
 * then only by three. A currency symbol or code (€, EUR, FLO: a symbol, or 2 to 5 capitals)
 * before or after the number is tolerated and not checked: a file holds one currency.
 * More than two decimals are refused, unless the extra ones are zeros ("12,500" is 12.50).
 *
 * A single `.` or `,` followed by exactly three digits ("1.234", "1,234") is the one case
 * the value alone cannot settle (unless the integer part has more than three digits or starts
 * with 0, or spaces already group the thousands): it is read with `decimal`, the file's decimal
 * separator (see `decimalSeparatorFor`), and refused as ambiguous when there is none.
 */
export function parseAmount(raw: string, decimal: DecimalSeparator | null): Parsed<bigint> {
  let s = raw.trim();
  if (s === "") return refused("empty");
  s = s.replace(CURRENCY_AT_END, "").replace(CURRENCY_AT_START, "");
  const sign = SIGN.exec(s);
  if (sign) s = s.slice(sign[0].length).replace(CURRENCY_AT_START, "");
  const negative = sign !== null && sign[1] !== "+";
  if (!BODY.test(s)) return refused("not an amount");

  const body = s.replace(GROUP_SPACES, " ");
  const spaced = body.includes(" ");
  const dots = count(body, ".");
  const commas = count(body, ",");
  let dec: DecimalSeparator | null = null;
  let group: string | null = spaced ? " " : null;

  if (dots > 0 && commas > 0) {
    // Both: the last one is the decimal separator, and must be alone.
    dec = body.lastIndexOf(".") > body.lastIndexOf(",") ? "." : ",";
    if (count(body, dec) > 1) return refused("two decimal separators");
    if (spaced) return refused("thousands grouped two different ways");
    group = dec === "." ? "," : ".";
  } else if (dots + commas > 1) {
    // The same one several times: it groups the thousands.
    if (spaced) return refused("thousands grouped two different ways");
    group = dots > 0 ? "." : ",";
  } else if (dots + commas === 1) {
    const sep: DecimalSeparator = dots > 0 ? "." : ",";
    const [before, after] = body.split(sep) as [string, string];
    if (after.includes(" ")) return refused("spaces after the decimal separator");
    const integer = before.replace(/ /g, "");
    if (after.length !== 3 || spaced || integer.length > 3 || integer.startsWith("0")) dec = sep;
    else if (decimal === sep) dec = sep;
    else if (decimal !== null) group = sep;
    else return refused(`ambiguous: "${sep === "." ? "1.234" : "1,234"}" could be a thousand or a decimal; write 1234 or 1234${sep}00`);
  }

  const [integerPart, fraction = ""] = dec ? (body.split(dec) as [string, string?]) : [body];
  let digits = integerPart;
  if (group) {
    const groups = integerPart.split(group);
    if (groups[0]!.length > 3 || groups.slice(1).some((g) => g.length !== 3) || groups[0] === "") {
      return refused("thousands must be grouped by three digits");
    }
    digits = groups.join("");
  }
  if (!/^\d+$/.test(digits) || (dec !== null && !/^\d+$/.test(fraction))) return refused("not an amount");
  const cents2 = fraction.replace(/0+$/, "");
  if (cents2.length > 2) return refused("more than 2 decimals");
  const whole = digits.replace(/^0+(?=\d)/, "");
  const cents = whole.length > 16 ? MAX_AMOUNT_CENTS + 1n : BigInt(whole) * 100n + BigInt(cents2.padEnd(2, "0"));
  if (cents > MAX_AMOUNT_CENTS) return refused(`larger than the largest amount, ${MAX_AMOUNT_TEXT}`);
  return ok(negative ? -cents : cents);
}

/**
 * A file's decimal separator, for the amounts that cannot tell by themselves ("1.234"): `;`
 * separates the fields of files made where the decimal separator is a comma (French Excel writes
 * `;` because the comma is taken), `,` of files made where it is a point. A tab says nothing:
 * ambiguous amounts of a tab-separated file are refused unless the separator is given.
 */
export function decimalSeparatorFor(delimiter: "," | ";" | "\t"): DecimalSeparator | null {
  return delimiter === ";" ? "," : delimiter === "," ? "." : null;
}

// ---------------------------------------------------------------------------------------------
// Dates

const DAY_FIRST = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d+)(?:[ T]+(\d{1,2})[:hH](\d{2})(?::(\d{2}))?)?$/;
const YEAR_FIRST = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Throws a RangeError naming the time zone if it is not one the runtime knows. */
export function checkTimeZone(timeZone: string): void {
  try {
    formatter(timeZone);
  } catch {
    throw new RangeError(`unknown time zone "${timeZone}" (an IANA name such as "Europe/Paris")`);
  }
}

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** How far ahead of UTC the zone's clocks are at an instant, in milliseconds. */
function offsetAt(utcMs: number, timeZone: string): number {
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(utcMs))) p[part.type] = Number(part.value);
  const asUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** Offsets by zone and local hour: a history of 500,000 lines spans a few thousand of them. */
const offsets = new Map<string, number>();

/**
 * The instant a zone's clocks showed a wall-clock time. Offsets change on the hour, so one is
 * looked up per local hour. A time the clocks skipped (spring) comes out an hour later; one they
 * showed twice (autumn) is taken as the second.
 */
function zonedToUtc(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number, timeZone: string): number {
  const local = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const key = `${timeZone} ${y}-${mo}-${d} ${h}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const hour = Date.UTC(y, mo - 1, d, h);
    const guess = offsetAt(hour, timeZone);
    offset = offsetAt(hour - guess, timeZone);
    if (offsets.size > 100_000) offsets.clear();
    offsets.set(key, offset);
  }
  return local - offset;
}

function validTime(h: number, mi: number, s: number): boolean {
  return h <= 23 && mi <= 59 && s <= 59;
}

/**
 * A date or a date and time to an instant. Read: `dd/mm/yyyy` (or with `.` or `-`), with
 * `hh:mm` or `hh:mm:ss` after it; `yyyy-mm-dd`; and ISO date-times (`T`, fractions of a second,
 * `Z` or an offset). Day first is the rule: a date whose second number is over 12 while the
 * first is not ("03/15/2024") is refused as month-first rather than read as another day; one
 * that could be either ("03/05/2024") is the 3rd of May. A time without an offset is the
 * association's wall-clock time (`timeZone`); a date without a time is taken at 12:00 there, so
 * that no offset ever moves it to another day. Impossible dates (31/02/2024) and two-digit years
 * are refused.
 */
export function parseDate(raw: string, timeZone: string): Parsed<Date> {
  const s = raw.trim();
  if (s === "") return refused("empty");
  let y: number, mo: number, d: number;
  let h = 12,
    mi = 0,
    sec = 0,
    ms = 0;
  let offsetMinutes: number | null = null;
  let m = DAY_FIRST.exec(s);
  if (m) {
    if (m[3]!.length !== 4) return refused("the year must have 4 digits");
    [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (mo > 12 && d <= 12) return refused("looks like month/day/year; dates are read day/month/year");
    if (m[4] !== undefined) [h, mi, sec] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  } else if ((m = YEAR_FIRST.exec(s))) {
    [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (m[4] !== undefined) {
      [h, mi, sec] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
      ms = Number((m[7] ?? "").padEnd(3, "0").slice(0, 3));
      const zone = m[8];
      if (zone !== undefined) {
        if (zone.toUpperCase() === "Z") offsetMinutes = 0;
        else {
          const digits = zone.slice(1).replace(":", "");
          const [oh, om] = [Number(digits.slice(0, 2)), Number(digits.slice(2) || "0")];
          if (oh > 23 || om > 59) return refused("impossible time offset");
          offsetMinutes = (zone[0] === "-" ? -1 : 1) * (oh * 60 + om);
        }
      }
    }
  } else {
    return refused("not a date (expected dd/mm/yyyy, dd/mm/yyyy hh:mm or yyyy-mm-dd)");
  }
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo)) return refused("impossible date");
  if (!validTime(h, mi, sec)) return refused("impossible time");
  const instant = offsetMinutes === null ? zonedToUtc(y, mo, d, h, mi, sec, ms, timeZone) : Date.UTC(y, mo - 1, d, h, mi, sec, ms) - offsetMinutes * 60_000;
  return ok(new Date(instant));
}

// ---------------------------------------------------------------------------------------------
// People

/** Trimmed and lower-cased (docs/spec.md §5), with the signup form's basic check. */
export function parseEmail(raw: string): Parsed<string> {
  const email = normalizeEmail(raw);
  if (email === "") return refused("empty");
  if (email.length > EMAIL_MAX) return refused(`longer than ${EMAIL_MAX} characters`);
  if (!isValidEmail(email)) return refused("not an e-mail address");
  return ok(email);
}

/** A first or last name, checked and stored as the signup form does (`nameProblem`, `normalizeName`). */
export function parseName(raw: string): Parsed<string> {
  const problem = nameProblem(raw);
  if (problem) {
    if (problem.id === M.fieldEmpty) return refused("empty");
    // The form's message for it speaks of a request; here it is a cell.
    if (problem.id === M.invalidRequest) return refused("contains control characters");
    return refused(renderMsg(problem));
  }
  return ok(normalizeName(raw));
}

/** A word in capitals ("DUPONT", "DE", "LE-GALL"): what French lists write family names in. */
const isCapitals = (word: string): boolean => {
  const letters = word.replace(/\P{L}/gu, "");
  return letters.length >= 2 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
};

/** A member's name as Mutua shows it: a business's one name alone, a person's first and last names. */
export const fullName = (m: { firstName: string; lastName: string }): string => (m.lastName === "" ? m.firstName : `${m.firstName} ${m.lastName}`);

/**
 * A full name in one cell to first and last names, which Mutua keeps apart. When the words in
 * capitals come all first or all last, and not alone, they are the family name: "DUPONT Jean"
 * and "Jean DUPONT" are both Jean, of the Duponts (French registers write names so). Otherwise
 * the first word is the first name and the rest the last name: "Marie de La Tour" is Marie,
 * "Jean-Pierre Martin" Jean-Pierre. The words keep their case as typed. A single word cannot be
 * split: such a name needs first and last names in two columns.
 */
export function splitFullName(raw: string): Parsed<{ firstName: string; lastName: string }> {
  const whole = parseName(raw);
  if (!whole.ok) return whole;
  const words = whole.value.split(" ");
  if (words.length < 2) return refused("a single word cannot be split into a first and a last name: give them in two columns");
  const caps = words.map(isCapitals);
  const leading = caps.indexOf(false);
  const trailing = caps.lastIndexOf(false) + 1;
  let split: { firstName: string; lastName: string };
  if (leading > 0 && caps.slice(leading).every((c) => !c)) {
    split = { lastName: words.slice(0, leading).join(" "), firstName: words.slice(leading).join(" ") };
  } else if (trailing > 0 && trailing < words.length && caps.slice(0, trailing).every((c) => !c)) {
    split = { firstName: words.slice(0, trailing).join(" "), lastName: words.slice(trailing).join(" ") };
  } else {
    split = { firstName: words[0]!, lastName: words.slice(1).join(" ") };
  }
  if (split.firstName.length > NAME_MAX || split.lastName.length > NAME_MAX) return refused(`a name longer than ${NAME_MAX} characters`);
  return ok(split);
}

/**
 * A phone number, checked and kept as the profile keeps the one a member types (`phoneProblem`,
 * `normalizePhone`): digits and the usual separators, 6 to 20 digits. An export can hold anything
 * in the cell (line breaks, markup, direction overrides, thousands of digits), which the members'
 * list and the directory would show as it came.
 */
export function parsePhone(raw: string): Parsed<string | null> {
  const problem = phoneProblem(raw);
  if (problem) return refused(renderMsg(problem));
  return ok(normalizePhone(raw));
}

/** The languages Mutua speaks (migration 0012's check on members.language). */
export type MemberLanguage = "fr-FR" | "en-US";

const LANGUAGE_WORDS: Record<string, MemberLanguage> = {
  fr: "fr-FR",
  fra: "fr-FR",
  fre: "fr-FR",
  french: "fr-FR",
  francais: "fr-FR",
  en: "en-US",
  eng: "en-US",
  english: "en-US",
  anglais: "en-US",
};

/**
 * A language as exports write it: a tag ("fr", "fr-FR", Odoo's "fr_FR"), a name in English or
 * French ("French", "français", Odoo's "French / Français"). Every French is fr-FR and every
 * English en-US, the two Mutua speaks; empty is null (the association's default).
 */
export function parseLanguage(raw: string): Parsed<MemberLanguage | null> {
  const words = fold(raw)
    .split(/[^a-z]+/)
    .filter(Boolean);
  if (words.length === 0) return raw.trim() === "" ? ok(null) : refused("not a language");
  for (const w of words) {
    const language = LANGUAGE_WORDS[w];
    if (language) return ok(language);
  }
  return refused("a language Mutua does not speak (fr or en); leave it empty for the association's default");
}

export const TRUE_WORDS = new Set(["1", "yes", "y", "oui", "o", "true", "vrai", "x"]);
export const FALSE_WORDS = new Set(["", "0", "no", "n", "non", "false", "faux"]);

/** A yes/no cell: 1/0, yes/no, oui/non, true/false (Odoo's True/False), vrai/faux, x or empty. */
export function parseBoolean(raw: string): Parsed<boolean> {
  const word = fold(raw);
  if (TRUE_WORDS.has(word)) return ok(true);
  if (FALSE_WORDS.has(word)) return ok(false);
  return refused("not yes or no (1/0, yes/no, oui/non, true/false, x or empty)");
}

/**
 * A memo as one line: line breaks and control characters become spaces and direction overrides
 * are dropped (what `memoProblem` refuses in a typed memo), runs of spaces become one. Its length
 * is left as it is: older systems allowed longer descriptions than Mutua's 50 characters.
 */
export const normalizeMemo = (raw: string): string =>
  raw
    .replace(/[\p{Cc}\u2028\u2029]+/gu, " ")
    .replace(/[\u202A-\u202E\u2066-\u2069]/g, "")
    .replace(/\s+/gu, " ")
    .trim();
