import type { DuesPeriod, MemberLanguage } from "@mutua/domain";

/**
 * A period's dues in words, in the member's language: the memo of its movement (so their history
 * reads "Dues · December 2026") and of its reminder. Written when the period is charged; a yearly
 * period is named by its year.
 */
export function duesMemo(period: string, every: DuesPeriod, language: MemberLanguage): string {
  const word = language === "fr-FR" ? "Cotisation" : "Dues";
  const at = new Date(`${period}T12:00:00Z`);
  const when =
    every === "yearly" ? String(at.getUTCFullYear()) : new Intl.DateTimeFormat(language, { month: "long", year: "numeric", timeZone: "UTC" }).format(at);
  return `${word} · ${when}`;
}
