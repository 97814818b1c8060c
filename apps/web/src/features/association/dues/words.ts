import type { I18n } from "@lingui/core";
import type { DuesPeriod, DuesStatus } from "@mutua/domain";

/** A period's name: its month and year ("December 2026"), or its year for yearly dues. */
export function periodName(locale: string, date: string, every: DuesPeriod | null): string {
  const at = new Date(`${date}T12:00:00Z`);
  if (every === "yearly") return String(at.getUTCFullYear());
  return new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(at);
}

/** A calendar date of the association's ("2026-12-01"), written in the member's language. */
export function dayName(locale: string, date: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${date}T12:00:00Z`));
}

export function statusLabel(i18n: I18n, s: DuesStatus): string {
  switch (s) {
    case "paid":
      return i18n._("Paid");
    case "arrears":
      return i18n._("Unpaid");
    case "waived":
      return i18n._("Waived");
  }
}
