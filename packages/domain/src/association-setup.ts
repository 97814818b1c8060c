/**
 * What an association is started from (`npm run setup`, from questions or from a file): its name,
 * its currency, its backends with their limits, its switches, its bank details and its first
 * administrator. One zod schema for both ways in, so a file and a typed answer are refused for the
 * same reasons, in the same words. The file's format is documented in docs/operations.md.
 */
import { z } from "zod";
import { EMAIL_MAX, isValidEmail, normalizeEmail } from "./email";
import { NAME_MAX, hasDeceptiveNameCharacters, normalizeName } from "./names";

export const SYMBOL_MAX = 8;

/** "-100", "0", "12.5", "1000.00": an amount as an operator writes it, in cents. */
const AMOUNT_RE = /^(-)?(\d{1,12})(?:\.(\d{1,2}))?$/;

export function parseSetupAmount(text: string): bigint | null {
  const m = AMOUNT_RE.exec(text.trim());
  if (!m) return null;
  const cents = BigInt(m[2]!) * 100n + BigInt((m[3] ?? "").padEnd(2, "0"));
  return m[1] ? -cents : cents;
}

const amount = z
  .string({ error: "An amount is expected, like 100 or 12.50." })
  .refine((t) => parseSetupAmount(t) !== null, "An amount is expected, like 100 or 12.50 (at most 2 decimals).")
  .transform((t) => parseSetupAmount(t)!);

/**
 * One line of text, which may be left empty: no control character (a line break would start a
 * new line in a transfer's details, an e-mail or a CSV file) and nothing that displays other than
 * it reads (names.ts).
 */
const line = (label: string, max: number) =>
  z
    .string({ error: `${label} is expected.` })
    .transform(normalizeName)
    .refine((t) => t.length <= max, `${label} is too long (at most ${max} characters).`)
    .refine((t) => !/\p{Cc}/u.test(t) && !hasDeceptiveNameCharacters(t), `${label} holds characters that are not allowed.`);

const text = (label: string, max: number) => line(label, max).refine((t) => t !== "", `${label} cannot be empty.`);

export const setupFields = {
  associationName: text("The association's name", NAME_MAX),
  currencyName: text("The currency's name", 40),
  /** The owners' settings change the symbol by this rule too (services/association/settings.ts). */
  currencySymbol: text("The currency's symbol", SYMBOL_MAX).refine((t) => !/\s/.test(t), "The currency's symbol cannot hold spaces."),
  floor: amount.refine((c) => c <= 0n, "The floor is 0 or below (members may owe at most that much)."),
  ceiling: amount.refine((c) => c >= 0n, "The ceiling is 0 or above."),
  topUpAmount: amount.refine((c) => c > 0n, "A top-up amount is above 0."),
  iban: z
    .string({ error: "An IBAN is expected." })
    .transform((t) => t.replace(/\s+/g, "").toUpperCase())
    .refine((t) => t === "" || ibanValid(t), "This IBAN is not valid (its check digits do not match)."),
  bic: z
    .string({ error: "A BIC is expected." })
    .transform((t) => t.replace(/\s+/g, "").toUpperCase())
    .refine((t) => t === "" || /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(t), "This BIC is not valid (8 or 11 letters and digits)."),
  /** Empty, the association's name is the holder. */
  holder: line("The account holder", NAME_MAX),
  firstName: text("The first name", NAME_MAX),
  lastName: text("The last name", NAME_MAX),
  email: z
    .string({ error: "An e-mail address is expected." })
    .transform(normalizeEmail)
    .refine((e) => e.length <= EMAIL_MAX && isValidEmail(e), "Invalid email."),
};

/** ISO 13616: the country and check digits moved to the end, letters as numbers, mod 97 is 1. */
export function ibanValid(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(iban)) return false;
  const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return rest === 1;
}

const topUpBounds = { topUpMin: setupFields.topUpAmount, topUpMax: setupFields.topUpAmount };
const boundsInOrder: [(b: { topUpMin: bigint; topUpMax: bigint }) => boolean, { message: string; path: string[] }] = [
  (b) => b.topUpMax >= b.topUpMin,
  { message: "The top-up maximum is at least the minimum.", path: ["topUpMax"] },
];

/** A custodial backend holds euros' worth the association received: no mutual credit, so no floor. */
const custodialBackend = z
  .object(topUpBounds)
  .strict()
  .refine(...boundsInOrder);

/** A ledger backend's members also have a mutual-credit account, between its floor and ceiling. */
const ledgerBackend = z
  .object({ floor: setupFields.floor, ceiling: setupFields.ceiling.nullable().default(null), ...topUpBounds })
  .strict()
  .refine(...boundsInOrder);

export type CustodialSetup = z.output<typeof custodialBackend>;
export type LedgerSetup = z.output<typeof ledgerBackend>;

export const AssociationSetup = z
  .object({
    association: z.object({ name: setupFields.associationName }).strict(),
    currency: z.object({ name: setupFields.currencyName, symbol: setupFields.currencySymbol }).strict(),
    backends: z
      .object({ custodial: custodialBackend.optional(), ledger: ledgerBackend.optional() })
      .strict()
      .refine((b) => b.custodial || b.ledger, "At least one backend is needed: custodial, ledger or both."),
    topUps: z.boolean().default(true),
    reconversions: z.boolean().default(true),
    bank: z.object({ iban: setupFields.iban, bic: setupFields.bic, holder: setupFields.holder }).strict(),
    administrator: z.object({ firstName: setupFields.firstName, lastName: setupFields.lastName, email: setupFields.email }).strict(),
  })
  .strict()
  .superRefine((s, ctx) => {
    // Members pay top-ups by bank transfer to this account: without it they would be told nowhere.
    if (s.topUps && s.bank.iban === "") ctx.addIssue({ code: "custom", path: ["bank", "iban"], message: "Top-ups are paid by transfer: the IBAN is needed." });
  });

/** An association's setup, parsed: names normalised, amounts in cents. */
export type AssociationSetup = z.output<typeof AssociationSetup>;
/** An association's setup as written in a file or typed. */
export type AssociationSetupInput = z.input<typeof AssociationSetup>;

/**
 * The keys a setup file accepts, at each place in it (docs/operations.md, "First setup"): a key
 * it refuses is named with the ones it takes there, so a misspelt or unknown one is put right at once.
 */
export const SETUP_FILE_KEYS: Record<string, readonly string[]> = {
  "": ["association", "currency", "backends", "topUps", "reconversions", "bank", "administrator"],
  association: ["name"],
  currency: ["name", "symbol"],
  backends: ["custodial", "ledger"],
  "backends.custodial": ["topUpMin", "topUpMax"],
  "backends.ledger": ["floor", "ceiling", "topUpMin", "topUpMax"],
  bank: ["iban", "bic", "holder"],
  administrator: ["firstName", "lastName", "email"],
};

/** Each problem of a setup, with where it is: "backends.ledger.floor: The floor is 0 or below…". */
export function setupProblems(error: z.ZodError): string[] {
  return error.issues.map((i) => {
    const at = i.path.join(".");
    const where = at === "" ? "(the file)" : at;
    if (i.code === "unrecognized_keys") {
      const accepted = SETUP_FILE_KEYS[at];
      const keys = i.keys.map((k) => `"${k}"`).join(", ");
      const what = at === "backends" ? "the kinds of backend are" : "the keys accepted here are";
      return `${where}: ${i.keys.length === 1 ? "Unrecognized key" : "Unrecognized keys"} ${keys}${accepted ? `; ${what} ${accepted.join(", ")}` : ""}.`;
    }
    // Said here, not in the schema: the schema is in the web app's bundle, this only in setup's.
    if (i.code === "invalid_type" && i.expected === "boolean") return `${where}: true or false is expected (without quotes).`;
    return `${where}: ${i.message}`;
  });
}

/**
 * The currency's id and its backends' name: its name in lower-case ASCII letters, digits and
 * dashes ("Le Florain" → "le-florain"), or "currency" when nothing of it is left.
 */
export function currencySlug(name: string): string {
  const slug = name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return slug || "currency";
}
