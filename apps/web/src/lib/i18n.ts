import { i18n, type Messages } from "@lingui/core";
import type { CompiledMessage } from "@lingui/message-utils/compileMessage";
import type { AppConfig, Msg } from "@mutua/domain";
// The strings' own language: only its plurals need their compiled form (compilePlain below).
import sourceCatalog from "../locales/en-US.json";

export { i18n };

/**
 * A message whose only placeholders are plain `{name}`s, compiled as Lingui's compiler would
 * ("Sent {amount}" → ["Sent ", ["amount"]]). The bundled source catalog leaves such messages out
 * (scripts/copy-catalogs.mjs, with the same rule; i18n.test.ts checks both against Lingui's own
 * compiler): Lingui hands a msgid it lacks to this, production builds having no compiler of their
 * own. Plurals and selects stay in the catalog, compiled.
 */
export const compilePlain = (text: string): CompiledMessage =>
  text.split(/\{(\w+)\}/).flatMap((part, i): CompiledMessage => (i % 2 ? [[part]] : part ? [part] : []));
i18n.setMessagesCompiler(compilePlain);

/** The number format of the active language (its config's numericFormat), set with the language. */
let numericFormat: string | undefined;

/**
 * Translates a message that came as data (from the domain package or the server). Amounts travel
 * in them as the API writes them ("5.00", "5.00 DL"): they are shown as the language writes them.
 */
export const tr = (m: Msg): string => i18n._(m.id, m.values && localizeAmounts(m.values, numericFormat ?? i18n.locale));

/** An amount as the API writes it ("-1234.50"), with the currency that may follow it ("5.00 DL"). */
const API_AMOUNT_TEXT = /^-?\d{1,16}\.\d{2}(?=(?: \S+)?$)/;

/**
 * A message's values with each amount ("1234.50", "5.00 DL") in the language's format ("1 234,50",
 * "5,00 DL" in French). Intl formats the decimal string exactly, as the domain's formatAmount does;
 * that module is not imported here, where it would add a file to the login page.
 */
export function localizeAmounts(values: NonNullable<Msg["values"]>, locale: string): NonNullable<Msg["values"]> {
  const nf = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const out: NonNullable<Msg["values"]> = {};
  for (const [k, v] of Object.entries(values)) {
    // The cast: Intl.NumberFormat takes a numeric string (ES2023); older typings say number.
    out[k] = typeof v === "string" ? v.replace(API_AMOUNT_TEXT, (a) => nf.format(a as unknown as number)) : v;
  }
  return out;
}

/**
 * Activates a language: the language the strings are written in needs no file; any other is
 * fetched from its configured url (docs/spec.md §3). Throws when the file cannot be loaded.
 */
export async function activateLanguage(config: AppConfig, tag: string): Promise<void> {
  const lang = config.locales.availableLanguages[tag];
  if (tag !== config.locales.appStringsLanguage && lang?.url) {
    const res = await fetch(lang.url, { headers: { Accept: "application/json" } });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    const json = (await res.json()) as { messages?: Messages } | Messages;
    i18n.load(tag, ("messages" in json && typeof json.messages === "object" ? json.messages : json) as Messages);
  } else {
    i18n.load(tag, (sourceCatalog as { messages: Messages }).messages);
  }
  numericFormat = lang?.numericFormat ?? tag;
  i18n.activate(tag);
  document.documentElement.lang = tag;
}
