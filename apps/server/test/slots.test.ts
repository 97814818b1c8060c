import { describe, expect, it } from "vitest";
import { slots } from "../src/services/platform/slots";
import { hashPasswordInTurn, verifyPassword } from "../src/services/members/passwords";

/** The bound on work that holds this process's threads (the hashes anonymous callers ask for). */
describe("slots", () => {
  it("runs at most n tasks at once, the others in their turn, each with its own answer or failure", async () => {
    const run = slots(2);
    let running = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const task = (i: number) =>
      run(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise<void>((r) => release.push(r));
        running--;
        if (i === 3) throw new Error("task 3 failed");
        return i;
      });
    const results = [0, 1, 2, 3, 4].map((i) => task(i).catch((e: Error) => e.message));
    // Let every task that can start, start.
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(release).toHaveLength(2);
    // Each finished task lets the next one in (first come, first served), never more than two at once.
    for (let done = 0; done < 5; done++) {
      for (let turn = 0; release.length <= done && turn < 100; turn++) await new Promise((r) => setImmediate(r));
      expect(running).toBeLessThanOrEqual(2);
      release[done]!();
    }
    expect(await Promise.all(results)).toEqual([0, 1, 2, "task 3 failed", 4]);
    expect(most).toBe(2);
  });

  it("hashes in turn what anonymous callers send, each hash as good as any", async () => {
    const hashes = await Promise.all(["Aa1!aaaa", "Bb2!bbbb", "Cc3!cccc"].map((p) => hashPasswordInTurn(p)));
    expect(await verifyPassword("Bb2!bbbb", hashes[1]!)).toBe(true);
    expect(await verifyPassword("Bb2!bbbb", hashes[0]!)).toBe(false);
  });
});
