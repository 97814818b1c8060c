import type { LocalesConfig } from "./config";

/**
 * Which language to show (docs/spec.md §3 "locales"): the saved choice, then the navigator's languages
 * when preferred, then the default. Unlike Monujo, "fr" or "fr-BE" also pick "fr-FR".
 */
export function chooseLanguage(locales: LocalesConfig, saved: string | null | undefined, navigatorLanguages: readonly string[]): string {
  const tags = Object.keys(locales.availableLanguages);
  if (saved && tags.includes(saved)) return saved;
  if (locales.preferNavigatorLanguage) {
    for (const nav of navigatorLanguages) {
      const exact = tags.find((t) => t.toLowerCase() === nav.toLowerCase());
      if (exact) return exact;
      const primary = nav.split("-")[0]!.toLowerCase();
      const near = tags.find((t) => t.split("-")[0]!.toLowerCase() === primary);
      if (near) return near;
    }
  }
  return tags.includes(locales.defaultLanguage) ? locales.defaultLanguage : locales.appStringsLanguage;
}
