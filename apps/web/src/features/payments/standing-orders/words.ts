import type { I18n } from "@lingui/core";
import { M, formatDate, type StandingOrderFrequency, type StandingOrderState } from "@mutua/domain";
import { tr } from "../../../lib/i18n";

/** How often an order pays, as the member chose it. */
export const frequencyLabel = (i18n: I18n, f: StandingOrderFrequency): string =>
  f === "once" ? i18n._("Once") : f === "weekly" ? i18n._("Every week") : i18n._("Every month");

export const stateLabel = (i18n: I18n, s: StandingOrderState): string =>
  s === "active" ? i18n._("Active") : s === "paused" ? i18n._("Paused") : s === "ended" ? i18n._("Ended") : i18n._("Cancelled");

/**
 * A day of the association's calendar ("2027-03-15") in the member's language and date format:
 * read at midnight UTC and written in UTC, so no time zone moves it to the day before.
 */
export const dayText = (date: string, dateLocale: string): string => formatDate(new Date(`${date}T00:00:00Z`), dateLocale, "UTC");

/** What a refused payment does next, as the member chose it. */
export const retryLabel = (i18n: I18n, days: number): string =>
  days === 0
    ? i18n._("Skip that payment")
    : days === 1
      ? i18n._("Try again the next day, once")
      : i18n._("Try again the next days, up to {count} days", { count: days });

/** Why a payment was refused (a msgid, as a refusal's), as a sentence. */
export const reasonText = (reason: string | null): string => {
  const text = tr({ id: reason ?? M.transferUnexpected });
  return /[.!]$/.test(text) ? text : `${text}.`;
};
