import { useLingui } from "@lingui/react";
import type { I18n } from "@lingui/core";
import type { ImportHistoryField, ImportMemberField, ImportProblem } from "@mutua/domain";
import { useConfig } from "../../lib/context";
import { useFormat } from "../../lib/format";

const plurals = new Map<string, Intl.PluralRules>();
const counts = new Map<string, Intl.NumberFormat>();

/**
 * Whether a count takes the singular in a language (1 in English; 0 and 1 in French). The screen
 * picks one of two messages by it rather than writing an ICU plural, whose compiled form the login
 * page would carry (apps/web/scripts/copy-catalogs.mjs).
 */
export function isOne(n: number, locale: string): boolean {
  let rules = plurals.get(locale);
  if (!rules) plurals.set(locale, (rules = new Intl.PluralRules(locale)));
  return rules.select(n) === "one";
}

/** A count as the language writes it ("1,234", "1 234"). */
export function countText(n: number, locale: string): string {
  let nf = counts.get(locale);
  if (!nf) counts.set(locale, (nf = new Intl.NumberFormat(locale)));
  return nf.format(n);
}

/** The delimiter of a file in words ("semicolons"), as the owner would say it. */
export function delimiterText(i18n: I18n, delimiter: string): string {
  if (delimiter === ";") return i18n._("semicolons");
  if (delimiter === ",") return i18n._("commas");
  if (delimiter === "\t") return i18n._("tabs");
  return JSON.stringify(delimiter);
}

/**
 * A problem where its author finds it: "members.csv, row 4 (A002), column Email, value “x”: message",
 * the parts missing left out. The row is the spreadsheet's; the reference, the line's own (the
 * member's number, the movement's in the old system).
 */
export function problemText(i18n: I18n, p: ImportProblem): string {
  const where = [
    p.file,
    p.line !== null ? (p.reference ? i18n._("row {row} ({reference})", { row: p.line, reference: p.reference }) : i18n._("row {row}", { row: p.line })) : null,
    p.column !== null ? i18n._("column {column}", { column: p.column }) : null,
    p.value !== null ? i18n._("value “{value}”", { value: p.value }) : null,
  ].filter((part): part is string => !!part);
  // Said in the owner's language from its code (the English template) and values; a code the catalog lacks reads in English.
  const message = i18n._(p.code, p.params);
  return where.length > 0 ? `${where.join(", ")}: ${message}` : message;
}

/** An amount as the API writes it, optionally followed by its currency ("1234.50 FLO"). */
const API_MONEY = /^(-?\d{1,16}\.\d{2})((?: .+)?)$/;

/** The import's numbers, amounts and dates in the member's language. */
export function useImportText() {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const lang = useConfig().locales.availableLanguages[i18n.locale];
  const numeric = lang?.numericFormat ?? i18n.locale;
  return {
    count: (n: number) => countText(n, numeric),
    one: (n: number) => isOne(n, i18n.locale),
    /** "1234.50" or "1234.50 FLO" as the language writes it ("1 234,50 FLO"); any other text as it came. */
    money: (text: string) => {
      const m = API_MONEY.exec(text);
      return m ? `${fmt.apiAmount(m[1]!)}${m[2]}`.replace(/^-/, "\u2212") : text;
    },
    date: (iso: string) => fmt.date(new Date(iso)),
  };
}

export type ImportText = ReturnType<typeof useImportText>;

/** The members file's fields the owner matches a column to, in the order a spreadsheet usually has them. */
export const MATCHED_MEMBER_FIELDS: readonly ImportMemberField[] = [
  "externalId",
  "firstName",
  "lastName",
  "name",
  "email",
  "phone",
  "language",
  "balance",
  "business",
  "businessName",
];

/** A field of Mutua's, as the owner matching a file's columns reads it. */
export function fieldText(i18n: I18n, field: ImportMemberField | ImportHistoryField): string {
  switch (field) {
    case "externalId":
      return i18n._("Member number in the old system");
    case "firstName":
      return i18n._("First name");
    case "lastName":
      return i18n._("Last name");
    case "name":
      return i18n._("Full name (first and last in one column)");
    case "email":
      return i18n._("Email");
    case "phone":
      return i18n._("Phone");
    case "language":
      return i18n._("Language");
    case "balance":
      return i18n._("Closing balance");
    case "business":
      return i18n._("Is a business (yes or no)");
    case "businessName":
      return i18n._("Business name");
    case "date":
      return i18n._("Date");
    case "from":
      return i18n._("Payer's member number");
    case "to":
      return i18n._("Payee's member number");
    case "amount":
      return i18n._("Amount");
    case "memo":
      return i18n._("Memo");
    case "reference":
      return i18n._("Reference in the old system");
    default:
      return field;
  }
}
