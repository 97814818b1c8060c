import { describe, expect, it } from "vitest";
import { keptOffline } from "./offline-cache";

const q = (queryKey: readonly unknown[], data: unknown = { any: 1 }, status: "success" | "error" | "pending" = "success") =>
  ({ queryKey, state: { status, data } }) as unknown as Parameters<typeof keptOffline>[0];

describe("what is kept for an offline start", () => {
  it("keeps what the dashboard draws", () => {
    for (const key of [
      ["me"],
      ["me", "rights"],
      ["me", "backends"],
      ["me", "accounts", "list"],
      ["me", "transactions", "w1", "recent"],
      ["me", "topups", "w1"],
    ]) {
      expect(keptOffline(q(key)), JSON.stringify(key)).toBe(true);
    }
  });

  it("keeps nothing else: admin lists, searches, payment previews, the full history, other visitors' queries", () => {
    for (const key of [
      ["me", "admin", "audit"],
      ["me", "recipients", "bob"],
      ["me", "prepare", "w1", "w2", "1.00"],
      ["me", "transactions", "w1", "list", {}],
      ["auth-capabilities"],
    ]) {
      expect(keptOffline(q(key)), JSON.stringify(key)).toBe(false);
    }
  });

  it("keeps no failure and no signed-out member", () => {
    expect(keptOffline(q(["me", "accounts", "list"], undefined, "error"))).toBe(false);
    expect(keptOffline(q(["me", "accounts", "list"], undefined, "pending"))).toBe(false);
    expect(keptOffline(q(["me"], null))).toBe(false);
  });
});
