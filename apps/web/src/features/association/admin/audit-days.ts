import type { AuditEntry } from "@mutua/domain";

/** A day of the audit log: today, yesterday, or the day itself (its local midnight). */
export interface AuditDay {
  key: string;
  day: "today" | "yesterday" | Date;
  entries: AuditEntry[];
}

const dayKey = (d: Date) => `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;

/**
 * The entries (newest first) by the local calendar day they were made on, as of `now`: each row
 * then says only its time, and the day is said once above its rows.
 */
export function auditDays(entries: AuditEntry[], now: Date): AuditDay[] {
  const today = dayKey(now);
  const yesterday = dayKey(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
  const days: AuditDay[] = [];
  for (const e of entries) {
    const at = new Date(e.at);
    const key = dayKey(at);
    const last = days.at(-1);
    if (last?.key === key) last.entries.push(e);
    else
      days.push({
        key,
        day: key === today ? "today" : key === yesterday ? "yesterday" : new Date(at.getFullYear(), at.getMonth(), at.getDate()),
        entries: [e],
      });
  }
  return days;
}
