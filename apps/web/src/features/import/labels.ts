import { useLingui } from "@lingui/react";
import type { I18n } from "@lingui/core";
import type { ImportProblem } from "@mutua/domain";
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

/** A problem where its author finds it: "members.csv, line 4, column Email, value “x”: message", the parts missing left out. */
export function problemText(i18n: I18n, p: ImportProblem): string {
  const where = [
    p.file,
    p.line !== null ? i18n._("line {line}", { line: p.line }) : null,
    p.column !== null ? i18n._("column {column}", { column: p.column }) : null,
    p.value !== null ? i18n._("value “{value}”", { value: p.value }) : null,
  ].filter((part): part is string => !!part);
  return where.length > 0 ? `${where.join(", ")}: ${p.message}` : p.message;
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
