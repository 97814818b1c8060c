const pad = (n: number) => String(Math.abs(n)).padStart(2, "0");

/** docs/spec.md §9: detail dates as YYYY-MM-DD HH:mm:ssZ (local time with its offset, "+01:00"). */
export function detailDate(iso: string): string {
  const d = new Date(iso);
  const off = -d.getTimezoneOffset();
  const zone = `${off >= 0 ? "+" : "-"}${pad(Math.trunc(off / 60))}:${pad(off % 60)}`;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}${zone}`;
}

/** How long ago, as a list of news groups it: the same local day, the last seven days, or before. */
export type Recency = "today" | "week" | "earlier";

const WEEK_MS = 7 * 24 * 3600 * 1000;

/** Which group `d` falls in, as of `now`, by the local calendar day (not 24 hours back). */
export function recency(d: Date, now: Date): Recency {
  if (d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate()) return "today";
  return now.getTime() - d.getTime() < WEEK_MS ? "week" : "earlier";
}
