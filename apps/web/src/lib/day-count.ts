import type { I18n } from "@lingui/core";

/**
 * "1 day", "8 days" in the reader's language, to put in a sentence: a count of days as plain
 * words rather than an ICU plural, whose compiled form would ride in the sign-in page's catalog
 * (apps/web/scripts/copy-catalogs.mjs). The counts it is given are never below one.
 */
export const dayCount = (i18n: I18n, days: number): string => (days === 1 ? i18n._("1 day") : i18n._("{count} days", { count: days }));
