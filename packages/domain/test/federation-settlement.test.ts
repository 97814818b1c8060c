import { describe, expect, it } from "vitest";
import {
  afterSettlement,
  peerParts,
  settlementAmounts,
  settlementDirection,
  settlementFits,
  settlementNote,
  settlementSplit,
} from "../src/federation/settlement";

/** The arithmetic of settling a link (docs/federation.md "Settlement"): A owes 10.00 AAA, that is 12.50 BBB it holds less than none of. */
const owing = { owed: 1000n, held: -1250n };

describe("which way a settlement goes, and whether it fits", () => {
  it("the side that owes pays, the other receives; nothing when nothing is owed or the two figures do not say one debt", () => {
    expect(settlementDirection(owing)).toBe("pay");
    expect(settlementDirection({ owed: -1250n, held: 1000n })).toBe("receive");
    expect(settlementDirection({ owed: 0n, held: 0n })).toBeNull();
    // A change of rate between payments can leave both above zero: only payments settle that.
    expect(settlementDirection({ owed: 200n, held: 100n })).toBeNull();
    expect(settlementDirection({ owed: -200n, held: -100n })).toBeNull();
  });

  it("brings both figures toward zero, never past it, and only the debt's way", () => {
    expect(afterSettlement(owing, "pay", 400n, 500n)).toEqual({ owed: 600n, held: -750n });
    expect(afterSettlement({ owed: -1250n, held: 1000n }, "receive", 500n, 400n)).toEqual({ owed: -750n, held: 600n });
    expect(settlementFits(owing, "pay", 1000n, 1250n)).toBe(true);
    expect(settlementFits(owing, "pay", 1001n, 1250n)).toBe(false);
    expect(settlementFits(owing, "pay", 1000n, 1251n)).toBe(false);
    expect(settlementFits(owing, "receive", 100n, 125n)).toBe(false);
    expect(settlementFits(owing, "pay", 0n, 1n)).toBe(false);
  });

  it("converts the amount given as a payment is, half to even, from either currency", () => {
    // 1 AAA is 1.25 BBB (values 1 and 0.8).
    const values = { ours: 10_000n, theirs: 8_000n };
    expect(settlementAmounts(400n, "ours", values)).toEqual({ amount: 400n, peerAmount: 500n });
    expect(settlementAmounts(500n, "theirs", values)).toEqual({ amount: 400n, peerAmount: 500n });
    // 0.02 BBB is 0.016 AAA: 0.02.
    expect(settlementAmounts(2n, "theirs", values)).toEqual({ amount: 2n, peerAmount: 2n });
    // 0.01 AAA is 0.0125 BBB: 0.01.
    expect(settlementAmounts(1n, "ours", values)).toEqual({ amount: 1n, peerAmount: 1n });
  });
});

describe("over the link's clearing wallets", () => {
  it("paying, from the highest balance down, each at most to zero, ties by id; a wallet below zero untouched", () => {
    const wallets = [
      { id: "w-b", balance: 300n },
      { id: "w-a", balance: 300n },
      { id: "w-c", balance: 500n },
      { id: "w-d", balance: -200n },
    ];
    expect(settlementSplit(wallets, 900n, "pay")).toEqual([
      { id: "w-c", amount: 500n },
      { id: "w-a", amount: 300n },
      { id: "w-b", amount: 100n },
    ]);
    expect(settlementSplit(wallets, 200n, "pay")).toEqual([{ id: "w-c", amount: 200n }]);
  });

  it("receiving, from the lowest balance up", () => {
    const wallets = [
      { id: "w-a", balance: -75n },
      { id: "w-b", balance: -500n },
      { id: "w-c", balance: 40n },
    ];
    expect(settlementSplit(wallets, 575n, "receive")).toEqual([
      { id: "w-b", amount: 500n },
      { id: "w-a", amount: 75n },
    ]);
  });

  it("what the balances do not cover goes to the first wallet, or the first by id; none without a wallet", () => {
    expect(settlementSplit([{ id: "w-a", balance: 100n }], 150n, "pay")).toEqual([{ id: "w-a", amount: 150n }]);
    expect(
      settlementSplit(
        [
          { id: "w-b", balance: 0n },
          { id: "w-a", balance: -10n },
        ],
        150n,
        "pay",
      ),
    ).toEqual([{ id: "w-a", amount: 150n }]);
    expect(settlementSplit([], 150n, "pay")).toEqual([]);
  });

  it("shares the other amount in proportion, each at least zero, adding up exactly", () => {
    expect(peerParts([500n, 75n], 575n, 460n)).toEqual([400n, 60n]);
    const parts = peerParts([1n, 1n, 1n], 3n, 2n);
    expect(parts.reduce((s, p) => s + p, 0n)).toBe(2n);
    expect(parts.every((p) => p >= 0n)).toBe(true);
    expect(peerParts([333n], 333n, 417n)).toEqual([417n]);
  });
});

describe("a settlement's note", () => {
  it("is kept trimmed, may be empty, and is refused too long, on several lines or with hidden characters", () => {
    expect(settlementNote("  Transfer ref. 2026-07 ")).toBe("Transfer ref. 2026-07");
    expect(settlementNote("")).toBe("");
    expect(settlementNote("x".repeat(200))).toBe("x".repeat(200));
    expect(settlementNote("x".repeat(201))).toBeNull();
    expect(settlementNote("one\ntwo")).toBeNull();
    expect(settlementNote("pay \u202Eevil")).toBeNull();
  });
});
