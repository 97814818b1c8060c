import { i18n, type Messages } from "@lingui/core";
import type { AppConfig, Msg } from "@mutua/domain";
// The strings' own language is compiled too, so its placeholders are filled without a runtime parser.
import sourceCatalog from "../locales/en-US.json";

export { i18n };

// The bundled source catalog holds only the messages that need their compiled form
// (scripts/copy-catalogs.mjs): any other msgid is its own text, shown as it is. Lingui hands such
// a text to its compiler, which production builds leave out; this one keeps it as it is.
i18n.setMessagesCompiler((text) => [text]);

/** Translates a message that came as data (from the domain package or the server). */
export const tr = (m: Msg): string => i18n._(m.id, m.values);

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
  i18n.activate(tag);
  document.documentElement.lang = tag;
}
