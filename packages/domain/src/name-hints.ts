/**
 * A name hint's date (members/schemas.ts NameHint: what tells apart members whose names look alike) in
 * a language's words: a month ("March 2024", "mars 2024"), or a day ("March 5, 2024", "5 mars
 * 2024") when `day` says the sentence around it needs one ("membre depuis le 5 mars 2024"). A
 * module apart from names.ts, which the sign-up page loads: only the screens showing a hint do.
 */
export function memberSinceDate(since: string, locale: string): { date: string; day: boolean } {
  const day = since.length > 7;
  const at = new Date(`${day ? since : `${since}-01`}T00:00:00Z`);
  const options: Intl.DateTimeFormatOptions = day ? { year: "numeric", month: "long", day: "numeric" } : { year: "numeric", month: "long" };
  return { date: new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" }).format(at), day };
}
