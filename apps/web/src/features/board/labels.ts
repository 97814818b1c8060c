import type { FigureInterval } from "@mutua/domain";

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
const cached = <T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T => {
  let f = cache.get(key) as T | undefined;
  if (!f) cache.set(key, (f = make()));
  return f;
};

/**
 * The coverage ("87.50", a percentage with two decimals) as the language writes it ("87.50%",
 * "87,50 %"), from the string itself (Intl formats a numeric string exactly); a dash when nothing
 * circulates.
 */
export function percentText(coverage: string | null, locale: string): string {
  if (coverage === null) return "—";
  const nf = cached(`${locale}|%`, () => new Intl.NumberFormat(locale, { style: "unit", unit: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 }));
  // The cast: Intl.NumberFormat takes a numeric string (ES2023); older typings say number.
  return nf.format(coverage as unknown as number);
}

/** A count ("1,234", "1 234"). */
export const countText = (n: number, locale: string): string => cached(`${locale}|#`, () => new Intl.NumberFormat(locale)).format(n);

/** A month as a table row names it: "November 2026", "novembre 2026". */
export const monthText = (d: Date, locale: string): string =>
  cached(`${locale}|month`, () => new Intl.DateTimeFormat(locale, { month: "long", year: "numeric" })).format(d);

/** A bucket's start under the chart, where room is short: "Nov 26" for a month, "25 Nov" for a week. */
export const tickText = (d: Date, interval: FigureInterval, locale: string): string =>
  cached(
    `${locale}|tick|${interval}`,
    () => new Intl.DateTimeFormat(locale, interval === "month" ? { month: "short", year: "2-digit" } : { month: "short", day: "numeric" }),
  ).format(d);

/**
 * A volume ("1234.50") as a number, for drawing only: the chart's scale needs numbers, while
 * every figure shown as text stays the API's exact string.
 */
export const volumeNumber = (volume: string): number => Number(volume);
