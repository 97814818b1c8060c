import type { AppConfig } from "@mutua/domain";

/** What the console's tests read of the config: the languages offered, none. */
export const consoleConfig = { locales: { availableLanguages: {} } } as unknown as AppConfig;

/** This server as its well-known description names it, in the console's tests: La Dalle (DL). */
export const dalleServer = {
  protocol: "mutua-federation/1" as const,
  name: "La Dalle",
  url: "https://dalle.example",
  currencyName: "Dalle",
  currencySymbol: "DL",
  publicKey: "k-dalle",
  fingerprint: "0123456789abcdef0123456789abcdef",
};
