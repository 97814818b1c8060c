import { describe, expect, it } from "vitest";
import { keptOffline } from "./offline-cache";
import { KEPT_OFFLINE } from "./query-policy";

const q = (meta: { offline?: true } | undefined, data: unknown = { any: 1 }, status: "success" | "error" | "pending" = "success") =>
  ({ meta, state: { status, data } }) as unknown as Parameters<typeof keptOffline>[0];

describe("what is kept for an offline start", () => {
  it("keeps the answers of the queries that ask for it", () => {
    expect(keptOffline(q(KEPT_OFFLINE))).toBe(true);
    expect(keptOffline(q(KEPT_OFFLINE, []))).toBe(true);
  });

  it("keeps nothing else: queries without the policy (admin lists, searches, payment previews, the full history)", () => {
    expect(keptOffline(q(undefined))).toBe(false);
    expect(keptOffline(q({}))).toBe(false);
  });

  it("keeps no failure, no unanswered query and no signed-out member", () => {
    expect(keptOffline(q(KEPT_OFFLINE, undefined, "error"))).toBe(false);
    expect(keptOffline(q(KEPT_OFFLINE, undefined, "pending"))).toBe(false);
    expect(keptOffline(q(KEPT_OFFLINE, null))).toBe(false);
  });
});
