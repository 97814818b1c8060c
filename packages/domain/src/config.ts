/**
 * The app's config.json (spec section 3): every key, its default, and how odd values are read.
 * Pure: the server serves the resolved file and the app resolves it again, so both agree.
 */

export interface LanguageConfig {
  label: string;
  /** Where the compiled catalog is fetched from; absent for the language the strings are written in. */
  url?: string;
  numericFormat?: string;
  dateFormat?: string;
  datePickerFormat?: Record<string, unknown>;
}

export interface LocalesConfig {
  availableLanguages: Record<string, LanguageConfig>;
  defaultLanguage: string;
  preferNavigatorLanguage: boolean;
  appStringsLanguage: string;
}

export type LocalAuthPolicy = [string, Record<string, unknown>];

export interface AppConfig {
  lokapiHost: string;
  lokapiDb: string;
  appName: string;
  theme: Record<string, unknown>;
  css: string;
  locales: LocalesConfig;
  localAuthPolicy: LocalAuthPolicy;
  loginLogoUrl?: string;
  logoUrl?: string;
  mapUrl?: string;
  helpUrl?: string;
  cguUrl?: string;
  signUpUrl?: string;
  /** Ours: where the navbar's Profile entry leads (Monujo used the Odoo portal); hidden when unset. */
  profileUrl?: string;
  /** Ours: the external administration link shown to holders of both validation rights; hidden when unset. */
  adminUrl?: string;
  hideProfile: boolean;
  hideResetPassword: boolean;
  hideAccountCreate: boolean;
  disableTopUp: boolean;
  disableReconversion: boolean;
  disableSplitMemo: boolean;
  disableReconversionStatusDisplay: boolean;
  /** Seconds; -1 disables; 0 or missing means 90; never under 10. */
  accountsRefreshInterval: number;
  /** Seconds; -1 disables; 0 or missing means 90. */
  transactionsRefreshInterval: number;
  /**
   * Ours: the association's own map and directory of businesses (docs/architecture.md "The
   * directory"): its tiles, the time zone its opening hours are in, the optional geocoding
   * service, and the sites that may frame `/carto?embed=1`. Set in config.json or by the owners;
   * read with `directoryConfig` (shops/hours.ts), which only the map and the server need.
   */
  directory?: unknown;
  /**
   * Ours, set by the server alone (never read from a file): no association yet, `npm run setup`
   * has not been run. The server then serves its setup page instead of the app.
   */
  setupRequired?: boolean;
}

export const APP_VERSION = "1.1.1";

export const DEFAULT_LOCALES: LocalesConfig = {
  availableLanguages: {
    "en-US": { label: "English", numericFormat: "en-US", dateFormat: "en-US" },
    "fr-FR": { label: "Français", url: "/i18n/fr-FR.json", numericFormat: "fr-FR", dateFormat: "fr-FR" },
  },
  defaultLanguage: "en-US",
  preferNavigatorLanguage: true,
  appStringsLanguage: "en-US",
};

export const DEFAULT_CONFIG: AppConfig = {
  lokapiHost: "",
  lokapiDb: "mutua",
  appName: "Mutua",
  theme: {},
  css: "",
  locales: DEFAULT_LOCALES,
  localAuthPolicy: ["Retention", { time: 900, subConfig: ["Pin", {}] }],
  logoUrl: "/logo.svg",
  hideProfile: false,
  hideResetPassword: false,
  hideAccountCreate: false,
  disableTopUp: false,
  disableReconversion: false,
  disableSplitMemo: false,
  disableReconversionStatusDisplay: false,
  accountsRefreshInterval: 90,
  transactionsRefreshInterval: 90,
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v : undefined);
const bool = (v: unknown, dflt: boolean): boolean => (typeof v === "boolean" ? v : dflt);

function interval(v: unknown, min: number): number {
  const n = typeof v === "number" && Number.isFinite(v) ? Math.trunc(v) : 0;
  if (n === -1) return -1;
  if (n <= 0) return 90;
  return Math.max(min, n);
}

function resolveLocales(raw: unknown): LocalesConfig {
  if (!isObject(raw)) return DEFAULT_LOCALES;
  const langs: Record<string, LanguageConfig> = {};
  const rawLangs = isObject(raw.availableLanguages) ? raw.availableLanguages : DEFAULT_LOCALES.availableLanguages;
  for (const [tag, l] of Object.entries(rawLangs)) {
    if (!isObject(l)) continue;
    const lang: LanguageConfig = { label: str(l.label) ?? tag };
    const url = str(l.url);
    if (url) lang.url = url;
    const numericFormat = str(l.numericFormat);
    if (numericFormat) lang.numericFormat = numericFormat;
    const dateFormat = str(l.dateFormat);
    if (dateFormat) lang.dateFormat = dateFormat;
    if (isObject(l.datePickerFormat)) lang.datePickerFormat = l.datePickerFormat;
    langs[tag] = lang;
  }
  const appStringsLanguage = str(raw.appStringsLanguage) ?? "en-US";
  if (!langs[appStringsLanguage]) langs[appStringsLanguage] = { label: appStringsLanguage };
  const dflt = str(raw.defaultLanguage);
  return {
    availableLanguages: langs,
    defaultLanguage: dflt && langs[dflt] ? dflt : appStringsLanguage,
    preferNavigatorLanguage: bool(raw.preferNavigatorLanguage, false),
    appStringsLanguage,
  };
}

/** Reads a config.json object, filling every missing or malformed key with its default. */
export function resolveConfig(raw: unknown): AppConfig {
  const r = isObject(raw) ? raw : {};
  const out: AppConfig = {
    ...DEFAULT_CONFIG,
    lokapiHost: str(r.lokapiHost) ?? DEFAULT_CONFIG.lokapiHost,
    lokapiDb: str(r.lokapiDb) ?? DEFAULT_CONFIG.lokapiDb,
    appName: str(r.appName) ?? DEFAULT_CONFIG.appName,
    theme: isObject(r.theme) ? r.theme : {},
    css: typeof r.css === "string" ? r.css : "",
    locales: "locales" in r ? resolveLocales(r.locales) : DEFAULT_LOCALES,
    localAuthPolicy:
      Array.isArray(r.localAuthPolicy) && typeof r.localAuthPolicy[0] === "string" && isObject(r.localAuthPolicy[1])
        ? [r.localAuthPolicy[0], r.localAuthPolicy[1]]
        : DEFAULT_CONFIG.localAuthPolicy,
    hideProfile: bool(r.hideProfile, false),
    hideResetPassword: bool(r.hideResetPassword, false),
    hideAccountCreate: bool(r.hideAccountCreate, false),
    disableTopUp: bool(r.disableTopUp, false),
    disableReconversion: bool(r.disableReconversion, false),
    disableSplitMemo: bool(r.disableSplitMemo, false),
    disableReconversionStatusDisplay: bool(r.disableReconversionStatusDisplay, false),
    accountsRefreshInterval: interval(r.accountsRefreshInterval, 10),
    transactionsRefreshInterval: interval(r.transactionsRefreshInterval, 1),
    // As it is: directoryConfig reads it, where the map and the server need it.
    directory: r.directory,
  };
  for (const key of ["loginLogoUrl", "logoUrl", "mapUrl", "helpUrl", "cguUrl", "signUpUrl", "profileUrl", "adminUrl"] as const) {
    const v = key in r ? str(r[key]) : DEFAULT_CONFIG[key];
    if (v) out[key] = v;
    else delete out[key];
  }
  return out;
}

/**
 * Base URL of the API from `lokapiHost`: empty means the page's own origin; a bare host
 * means https on that host, as in Monujo's config files.
 */
export function apiBaseUrl(lokapiHost: string, pageOrigin: string): string {
  const host = lokapiHost.trim();
  if (host === "") return pageOrigin;
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host : `https://${host}`;
  return url.replace(/\/+$/, "");
}
