const pad = (n: number) => String(Math.abs(n)).padStart(2, "0");

/** docs/spec.md §9: detail dates as YYYY-MM-DD HH:mm:ssZ (local time with its offset, "+01:00"). */
export function detailDate(iso: string): string {
  const d = new Date(iso);
  const off = -d.getTimezoneOffset();
  const zone = `${off >= 0 ? "+" : "-"}${pad(Math.trunc(off / 60))}:${pad(off % 60)}`;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}${zone}`;
}
