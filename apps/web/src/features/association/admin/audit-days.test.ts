import { describe, expect, it } from "vitest";
import type { AuditEntry } from "@mutua/domain";
import { auditDays } from "./audit-days";

const entry = (id: string, at: Date): AuditEntry => ({
  id,
  at: at.toISOString(),
  actor: "Ada Admin",
  actorAssociation: null,
  action: "wallet.limits",
  subject: "w",
  subjectName: null,
  details: {},
});

describe("the audit log's days", () => {
  // Local times: the days are the reader's calendar days, whatever the machine's time zone.
  const now = new Date(2026, 2, 1, 0, 30);

  it("puts each entry under its local day, today and yesterday by name, across a month's end", () => {
    const days = auditDays(
      [
        entry("5", new Date(2026, 2, 1, 0, 10)),
        entry("4", new Date(2026, 1, 28, 23, 59)),
        entry("3", new Date(2026, 1, 28, 0, 0)),
        entry("2", new Date(2026, 1, 27, 12, 0)),
        entry("1", new Date(2025, 11, 31, 9, 0)),
      ],
      now,
    );
    expect(days.map((d) => [d.day, d.entries.map((e) => e.id)])).toEqual([
      ["today", ["5"]],
      ["yesterday", ["4", "3"]],
      [new Date(2026, 1, 27), ["2"]],
      [new Date(2025, 11, 31), ["1"]],
    ]);
  });

  it("has no day for no entry", () => {
    expect(auditDays([], now)).toEqual([]);
  });
});
