import type { LinguiConfig } from "@lingui/conf";

// Catalogs are gettext .po files keyed by the English text (msgid), as Monujo's were.
const config: LinguiConfig = {
  locales: ["en-US", "fr-FR"],
  sourceLocale: "en-US",
  catalogs: [{ path: "<rootDir>/src/locales/{locale}", include: ["<rootDir>/src"] }],
  format: "po",
  compileNamespace: "json",
};
export default config;
