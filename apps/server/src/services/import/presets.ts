import fs from "node:fs/promises";
import { z } from "zod";
import { IMPORT_HISTORY_FIELDS, IMPORT_MEMBER_FIELDS } from "@mutua/domain";
import { fold } from "./values";

/**
 * Which column of a file holds which of Mutua's fields: a built-in preset for the exports
 * associations come with, chosen by name or recognized from the headers, and the association's
 * own mapping (a JSON file) for anything else or on top of a preset. Headers are compared
 * without case, accents or surrounding spaces ("E-MAIL " is "e-mail").
 */

export type MemberField = "externalId" | "firstName" | "lastName" | "name" | "email" | "phone" | "language" | "balance" | "rights" | "business" | BusinessField;
/** What a business's profile in the directory is made of: read only on a line whose business cell says yes. */
export type BusinessField =
  "businessName" | "category" | "description" | "address" | "postcode" | "city" | "businessPhone" | "website" | "latitude" | "longitude";
export type HistoryField = "date" | "from" | "to" | "amount" | "memo" | "reference";
export type FileKind = "members" | "history";
export type FieldOf<K extends FileKind> = K extends "members" ? MemberField : HistoryField;

// The contract's lists (the console's matching offers them): each is one of the fields here.
export const MEMBER_FIELDS: readonly MemberField[] = IMPORT_MEMBER_FIELDS;
export const HISTORY_FIELDS: readonly HistoryField[] = IMPORT_HISTORY_FIELDS;

/** The fields as problems name them. */
export const FIELD_LABELS: Record<MemberField | HistoryField, string> = {
  externalId: "external id",
  firstName: "first name",
  lastName: "last name",
  name: "name",
  email: "e-mail",
  phone: "phone",
  language: "language",
  balance: "balance",
  rights: "rights",
  business: "business",
  businessName: "business name",
  category: "category",
  description: "description",
  address: "address",
  postcode: "postcode",
  city: "city",
  businessPhone: "business phone",
  website: "website",
  latitude: "latitude",
  longitude: "longitude",
  date: "date",
  from: "from",
  to: "to",
  amount: "amount",
  memo: "memo",
  reference: "reference",
};

/** For each field, the headers that may hold it, in order of preference. */
export type Columns<F extends string> = Partial<Record<F, readonly string[]>>;

export interface Preset<F extends string> {
  name: string;
  columns: Columns<F>;
}

/**
 * The fields a file of each kind cannot be read without, as groups of alternatives:
 * [["firstName", "lastName"], ["name"]] is either both names or one to split. A preset claims a
 * file only when the file has a column for each of them (all its required columns are there): a
 * spreadsheet that happens to share three headers with an export is not taken for it.
 */
export const NAME_CHOICES: readonly (readonly MemberField[])[] = [["firstName", "lastName"], ["name"]];
export const REQUIRED_FIELDS: { [K in FileKind]: readonly (readonly (readonly FieldOf<K>[])[])[] } = {
  members: [[["externalId"]], [["email"]], [["balance"]], NAME_CHOICES],
  history: [[["date"]], [["from"]], [["to"]], [["amount"]]],
};

/** Whether columns found hold every required field of a kind. */
export const hasRequired = <K extends FileKind>(kind: K, found: Partial<Record<FieldOf<K>, unknown>>): boolean =>
  REQUIRED_FIELDS[kind].every((choices) => choices.some((group) => group.every((f) => found[f as FieldOf<K>] !== undefined)));

/**
 * Mutua's own format, the one to write a spreadsheet in by hand: snake_case headers, one per
 * field. Members: external_id (the member's id in the old system, which the history's from and
 * to name), first_name, last_name, email, phone, language (fr or en), balance (the closing
 * balance, negative for a mutual credit in debt), rights (a list: accounts, credits, board,
 * owner), business (1 for a shop), and for a shop its profile in the directory, all optional:
 * business_name (else the member's first and last names), category (a name of the association's
 * list, in English or French), description, address (with postcode and city, when apart),
 * business_phone (the member's own phone is never published), website, latitude and longitude
 * (decimal degrees, both or neither). History: date, from, to (external ids; empty for money
 * entering or leaving the system), amount (positive), memo, reference (the old system's number).
 */
const MUTUA_MEMBERS: Preset<MemberField> = {
  name: "mutua",
  columns: {
    externalId: ["external_id"],
    firstName: ["first_name"],
    lastName: ["last_name"],
    name: ["name"],
    email: ["email"],
    phone: ["phone"],
    language: ["language"],
    balance: ["balance"],
    rights: ["rights"],
    business: ["business"],
    businessName: ["business_name"],
    category: ["category"],
    description: ["description"],
    address: ["address"],
    postcode: ["postcode", "zip"],
    city: ["city"],
    businessPhone: ["business_phone"],
    website: ["website"],
    latitude: ["latitude", "lat"],
    longitude: ["longitude", "lon", "lng"],
  },
};

const MUTUA_HISTORY: Preset<HistoryField> = {
  name: "mutua",
  columns: { date: ["date"], from: ["from"], to: ["to"], amount: ["amount"], memo: ["memo"], reference: ["reference"] },
};

/**
 * Cyclos 4's user search exported to CSV. Source: the labels of Cyclos's own front end,
 * cyclosproject/cyclos4-ui src/i18n/i18n.json and i18n.fr.json ("user.username": "Login name" /
 * "Nom d'utilisateur", "user.name": "Full name" / "Nom complet", "general.name": "Name" / "Nom",
 * "user.email": "E-mail" / "Courriel", "phone.mobile": "Mobile phone" / "Téléphone mobile",
 * "phone.landLine", "account.balance": "Balance" / "Solde"). The CSV is written by the Cyclos
 * server, whose source is not public: that it uses these same labels is likely but unverified,
 * and profile fields are renamed per network. Moderately sure; a mapping overrides any of them.
 * The users export holds no balance: the association adds the column (or maps a report's).
 * Nor does it say who is a shop, and a shop's fields (address, website, category) are profile
 * fields each network names as it likes: a mapping names the business column and those.
 */
const CYCLOS4_USERS: Preset<MemberField> = {
  name: "cyclos4-users",
  columns: {
    externalId: ["Login name", "Username", "Login", "Nom d'utilisateur", "Identifiant"],
    name: ["Name", "Full name", "Nom", "Nom complet"],
    email: ["E-mail", "Email", "Courriel"],
    phone: ["Mobile phone", "Phone", "Land-line phone", "Téléphone mobile", "Téléphone", "Téléphone fixe"],
    balance: ["Balance", "Account balance", "Solde"],
  },
};

/**
 * Cyclos 4's transfers overview (administration, all accounts) exported to CSV: one line per
 * transfer with both parties. Source: the same cyclos4-ui labels, and its
 * search-transfers-overview table (date, from, to, amount); "transaction.number": "Transaction
 * number" / "Numéro de transaction", "general.description": "Description" / "Déscription" (sic).
 * Moderately sure, as above. Cyclos shows the parties by display name there, not by login name:
 * check that the from and to values are what the members file's ids are, or map other columns.
 * A member's own account history (one "From / to" column and signed amounts) is not this format.
 */
const CYCLOS4_HISTORY: Preset<HistoryField> = {
  name: "cyclos4-history",
  columns: {
    date: ["Date"],
    from: ["From", "From user", "De", "De l'utilisateur"],
    to: ["To", "To user", "À", "À l'utilisateur"],
    amount: ["Amount", "Montant"],
    memo: ["Description", "Déscription"],
    reference: ["Transaction number", "Numéro de transaction"],
  },
};

/**
 * Odoo's contacts (res.partner) exported from the list view, as Lokavaluto's Odoo does. Source:
 * Odoo's export controller (addons/web/controllers/export.py): an "import-compatible" export
 * writes technical field names as headers (id, name, email, phone, mobile, lang, is_company),
 * the other one the fields' labels ("External ID" or "ID", "Name", "Email", "Phone", "Mobile",
 * "Language", "Is a Company"; in French "Nom", "Courriel", "Téléphone", "Langue", "Est une
 * société"). Sure of the technical names, fairly sure of the English labels, less of the French
 * ones, which vary across Odoo versions. The phone is the Phone column, or Mobile where Phone is
 * empty. Odoo keeps no balance: the association adds the column.
 *
 * A company (is_company) gets a profile in the directory from its own fields: its name as Odoo
 * writes it, street, zip and city (labels "Street", "Zip", "City"; "Rue", "Code postal", "Ville"),
 * its phone, its website, its tags (category_id, "Tags" / "Étiquettes", a list: the first that
 * names a category of the association's), and partner_latitude and partner_longitude where the
 * base_geolocalize module fills them ("Geo Latitude", "Geo Longitude"; 0 and 0, Odoo's value for a
 * partner never placed, is no location). Its comment ("Notes") is internal: never published.
 */
const ODOO_CONTACTS: Preset<MemberField> = {
  name: "odoo-contacts",
  columns: {
    externalId: ["External ID", "ID externe", "id", "ID"],
    name: ["Name", "Nom", "Display Name", "display_name"],
    email: ["Email", "E-mail", "Courriel"],
    phone: ["Phone", "Téléphone", "Mobile"],
    language: ["Language", "Langue", "lang"],
    balance: ["Balance", "Solde"],
    business: ["Is a Company", "Est une société", "is_company"],
    businessName: ["Name", "Nom", "Display Name", "display_name"],
    category: ["Tags", "Étiquettes", "category_id"],
    address: ["Street", "Rue"],
    postcode: ["Zip", "Code postal"],
    city: ["City", "Ville"],
    businessPhone: ["Phone", "Téléphone", "Mobile"],
    website: ["Website", "Site web"],
    latitude: ["Geo Latitude", "Géo latitude", "partner_latitude"],
    longitude: ["Geo Longitude", "Géo longitude", "partner_longitude"],
  },
};

const PRESETS: { [K in FileKind]: readonly Preset<FieldOf<K>>[] } = {
  members: [MUTUA_MEMBERS, CYCLOS4_USERS, ODOO_CONTACTS],
  history: [MUTUA_HISTORY, CYCLOS4_HISTORY],
};

export const presetNames = (kind: FileKind): string[] => PRESETS[kind].map((p) => p.name);

// ---------------------------------------------------------------------------------------------
// Mappings

export interface Mapping {
  members?: Partial<Record<MemberField, string | string[]>>;
  history?: Partial<Record<HistoryField, string | string[]>>;
}

const headers = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
const fieldsOf = <F extends string>(fields: readonly F[]) =>
  z.strictObject(Object.fromEntries(fields.map((f) => [f, headers.optional()])) as Record<F, z.ZodOptional<typeof headers>>);
const MAPPING = z.strictObject({ members: fieldsOf(MEMBER_FIELDS).optional(), history: fieldsOf(HISTORY_FIELDS).optional() });

const MAPPING_SHAPE = `{"members": {"externalId": "Login", "email": "E-mail", …}, "history": {"date": "Date", …}}`;

/**
 * A mapping file: {"members": {"externalId": "Login", "email": "E-mail", …}, "history": {…}}.
 * What is wrong with one is said without a word of what the file holds: a path given by mistake
 * (a system file, somebody's notes) must not have its contents printed in a log or a terminal.
 * The place named is made of Mutua's own words only (its files and fields).
 */
export function parseMapping(json: unknown): Mapping {
  const parsed = MAPPING.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // With strict objects, a path goes through known keys only; an unknown key is named by nothing.
    const where = issue.path.map(String).join(".") || "top level";
    const fields = (issue.path[0] === "history" ? HISTORY_FIELDS : MEMBER_FIELDS).join(", ");
    const why =
      issue.code === "unrecognized_keys"
        ? issue.path.length === 0
          ? 'a key other than "members" and "history"'
          : `a key that is not one of the fields (${fields})`
        : issue.path.length === 0
          ? "expected an object"
          : issue.path.length === 1
            ? `expected an object of fields (${fields})`
            : "expected a column's header or a list of headers";
    throw new Error(`not a valid mapping: at ${where}, ${why}; a mapping is ${MAPPING_SHAPE}`);
  }
  return parsed.data as Mapping;
}

export async function loadMapping(file: string): Promise<Mapping> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(`cannot read the mapping ${file}${code ? ` (${code})` : ""}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text it stopped at: not repeated.
    throw new Error(`${file} is not a valid mapping: it is not a JSON file; a mapping is ${MAPPING_SHAPE}`);
  }
  try {
    return parseMapping(json);
  } catch (e) {
    throw new Error(`${file} is ${(e as Error).message}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Resolving a file's headers

export interface ResolvedColumn {
  /** The header as written in the file. */
  header: string;
  index: number;
}

export interface Resolution<F extends string> {
  /** The preset read with ("custom" for a mapping alone), or null when none fits. */
  preset: string | null;
  /** Per field, its columns present in the file, in order of preference (the first non-empty wins). */
  columns: Partial<Record<F, ResolvedColumn[]>>;
  /** What each field was looked for under, to name what is missing. */
  expected: Columns<F>;
  /** Headers no field reads: listed, not errors. */
  unknownColumns: string[];
  /** Headers a field reads that the file has twice: the first is read. */
  duplicated: string[];
}

export interface ColumnChoice<F extends string> {
  /** A preset by name; when absent, the one the headers fit best, if any. */
  preset?: string;
  /** Headers per field, over the preset's (or alone). */
  mapping?: Partial<Record<F, string | string[]>>;
  /**
   * The mapping the association used last for a file of this kind (the console remembers it):
   * read with when no preset is named, no mapping given and no preset fits, if the file has
   * every column it names for a required field.
   */
  remembered?: Partial<Record<F, string | string[]>>;
}

function locate<F extends string>(fileHeaders: readonly string[], columns: Columns<F>): Partial<Record<F, ResolvedColumn[]>> {
  const firstIndex = new Map<string, number>();
  fileHeaders.forEach((h, i) => {
    const key = fold(h);
    if (key !== "" && !firstIndex.has(key)) firstIndex.set(key, i);
  });
  const found: Partial<Record<F, ResolvedColumn[]>> = {};
  for (const [field, candidates] of Object.entries(columns) as [F, readonly string[]][]) {
    const hits: ResolvedColumn[] = [];
    for (const c of candidates) {
      const index = firstIndex.get(fold(c));
      if (index !== undefined && !hits.some((h) => h.index === index)) hits.push({ header: fileHeaders[index]!, index });
    }
    if (hits.length > 0) found[field] = hits;
  }
  return found;
}

/**
 * A mapping over a preset: a field it names replaces the preset's headers for it. Fields in
 * `alternatives` exclude each other: a mapping naming one drops the preset's others (a mapped
 * "name" column, and the preset's first and last names are no longer looked for).
 */
function overlay<F extends string>(base: Columns<F>, mapping: Partial<Record<F, string | string[]>>, alternatives: readonly (readonly F[])[]): Columns<F> {
  const result: Columns<F> = { ...base };
  const mapped = Object.keys(mapping) as F[];
  for (const group of alternatives) {
    if (!group.some((f) => mapped.includes(f))) continue;
    for (const other of alternatives) if (other !== group) for (const f of other) if (!mapped.includes(f)) delete result[f];
  }
  for (const f of mapped) {
    const headers: string | string[] | undefined = mapping[f];
    if (headers !== undefined) result[f] = typeof headers === "string" ? [headers] : headers;
  }
  return result;
}

/**
 * Which column holds which field: a preset named, with the mapping (if any) over it; a mapping
 * alone ("custom"); or, with neither, the preset whose required columns (REQUIRED_FIELDS) are all there and which
 * reads the most of the file's columns (the first listed on a tie), else none. A mapping without
 * a preset does not look for one: what is read is what it says, whatever the headers look like.
 */
export function resolveColumns<K extends FileKind>(
  kind: K,
  fileHeaders: readonly string[],
  choice: ColumnChoice<FieldOf<K>>,
  alternatives: readonly (readonly FieldOf<K>[])[] = [],
): Resolution<FieldOf<K>> {
  type F = FieldOf<K>;
  const presets = PRESETS[kind] as readonly Preset<F>[];
  const mapping = choice.mapping ?? {};
  const hasMapping = Object.keys(mapping).length > 0;
  let preset: Preset<F> | null = null;
  if (choice.preset !== undefined) {
    preset = presets.find((p) => p.name === choice.preset) ?? null;
    if (!preset) throw new Error(`unknown ${kind} preset "${choice.preset}" (known: ${presetNames(kind).join(", ")})`);
  } else if (!hasMapping) {
    let best = 0;
    for (const p of presets) {
      const found = locate(fileHeaders, p.columns);
      if (!hasRequired(kind, found)) continue;
      const reads = Object.values<ResolvedColumn[] | undefined>(found).reduce((n, cols) => n + (cols?.length ?? 0), 0);
      if (reads > best) [preset, best] = [p, reads];
    }
  }
  let chosen = mapping;
  if (!preset && !hasMapping && choice.remembered && hasRequired(kind, locate(fileHeaders, overlay({}, choice.remembered, alternatives))))
    chosen = choice.remembered;
  const mapped = Object.keys(chosen).length > 0;
  const expected = overlay(preset?.columns ?? {}, chosen, alternatives);
  const columns = locate(fileHeaders, expected);

  const used = new Set(Object.values<ResolvedColumn[] | undefined>(columns).flatMap((cols) => (cols ?? []).map((c) => c.index)));
  const unknownColumns = fileHeaders.filter((h, i) => !used.has(i) && h.trim() !== "");
  const usedKeys = new Set([...used].map((i) => fold(fileHeaders[i]!)));
  const duplicated = fileHeaders.filter((h, i) => usedKeys.has(fold(h)) && !used.has(i));
  return {
    preset: preset ? preset.name : mapped ? "custom" : null,
    columns,
    expected,
    unknownColumns: unknownColumns.filter((h) => !duplicated.includes(h)),
    duplicated,
  };
}

/** The presets of a kind with the headers of their required columns, for the message when none fits and the documentation. */
export function requiredHeaders(kind: FileKind): { preset: string; required: string[][] }[] {
  return (PRESETS[kind] as readonly Preset<string>[]).map((p) => ({
    preset: p.name,
    required: REQUIRED_FIELDS[kind].map((choices) =>
      (choices as readonly (readonly string[])[])
        .filter((group) => group.every((f) => (p.columns as Record<string, readonly string[] | undefined>)[f]))
        .map((group) => group.map((f) => (p.columns as Record<string, readonly string[]>)[f]![0]!).join(" + ")),
    ),
  }));
}

/** The headers each preset of a kind needs, for the message when none fits: mutua ("external_id", "email", …). */
export function detectionHeaders(kind: FileKind): string {
  return requiredHeaders(kind)
    .map((p) => `${p.preset} (${p.required.map((alternatives) => alternatives.map((h) => `"${h}"`).join(" or ")).join(", ")})`)
    .join("; ");
}
