import { describe, expect, it } from "vitest";
import { EventHub } from "../src/services/notifications/event-hub";
import { openCustodialWallet } from "../src/services/wallets/wallets";
import { createBackend, seedMember, topUp } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * What wakes the instances' notification workers (services/notifications/event-hub.ts): a message
 * queued, told by the transaction that queued it, not every member's event. Most payments queue
 * nothing, and each wake-up costs every instance its claims.
 */
const t = setupServerTest({ server: false });

describe("the notification workers' wake-ups", () => {
  it("come when a top-up queues a message, not for one that queues none", async () => {
    const custodial = await createBackend(t.db, { kind: "custodial", symbol: "DL" });
    const carol = await seedMember(t.db, { firstName: "Carol", lastName: "Petit" });
    const bob = await seedMember(t.db, { firstName: "Bob", lastName: "Durand" });
    const carolWallet = await openCustodialWallet(t.db, custodial, carol.id);
    const bobWallet = await openCustodialWallet(t.db, custodial, bob.id);
    await t.db.query("INSERT INTO notification_preferences (member_id, channel, kind) VALUES ($1, 'email', 'topup_credited')", [bob.id]);
    // An instance's ear, as the workers' own, its wake-ups counted.
    const hub = new EventHub(t.db, () => {});
    let events = 0;
    let outbox = 0;
    hub.subscribeAll(() => events++);
    hub.subscribeOutbox(() => outbox++);
    try {
      // Listening: each watcher looks once when the connection is made.
      await expect.poll(() => events > 0 && outbox > 0, { timeout: 10_000 }).toBe(true);
      const before = { events, outbox };
      await topUp(t.db, carolWallet, "5.00");
      await expect.poll(() => events > before.events, { timeout: 10_000 }).toBe(true);
      // Carol's event queued nothing; Bob's queues his mail. Notifications arrive in the order
      // their transactions committed: once Bob's wake-up is here, one of Carol's would be too.
      await topUp(t.db, bobWallet, "5.00");
      await expect.poll(() => outbox > before.outbox, { timeout: 10_000 }).toBe(true);
      expect(outbox - before.outbox).toBe(1);
      const { rows } = await t.db.query("SELECT d.kind FROM notification_deliveries d JOIN member_events e ON e.id = d.event_id WHERE e.member_id = $1", [
        bob.id,
      ]);
      expect(rows).toEqual([{ kind: "topup_credited" }]);
    } finally {
      await hub.close();
    }
  });
});
