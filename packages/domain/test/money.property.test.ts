import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_AMOUNT_CENTS,
  MAX_AMOUNT_TEXT,
  M,
  formatCents,
  parseApiAmount,
  parseAmountInput,
  memoProblem,
  renderMsg,
  splitPayment,
  spendable,
  transactionsCsv,
  csvFileName,
  canonicalTransferMessage,
  splitEvenly,
  asCents,
} from "../src";

const cents = fc.bigInt({ min: -MAX_AMOUNT_CENTS, max: MAX_AMOUNT_CENTS });
const positive = fc.bigInt({ min: 1n, max: MAX_AMOUNT_CENTS });

describe("money properties", () => {
  it("a bill split evenly: the parts add up to it, differ by a cent at most, the larger first", () => {
    fc.assert(
      fc.property(positive, fc.integer({ min: 1, max: 10 }), (total, n) => {
        const parts = splitEvenly(asCents(total), n);
        if (total < BigInt(n)) return parts === null;
        if (!parts || parts.length !== n) return false;
        const sum = parts.reduce((a, b) => a + b, 0n);
        return sum === total && parts.every((p, i) => p >= 1n && parts[0]! - p <= 1n && (i === 0 || parts[i - 1]! >= p));
      }),
    );
    expect(splitEvenly(asCents(900n), 2)).toEqual([450n, 450n]);
    expect(splitEvenly(asCents(1000n), 3)).toEqual([334n, 333n, 333n]);
  });
  it("formatCents and parseApiAmount are inverse on every amount", () => {
    fc.assert(fc.property(cents, (c) => parseApiAmount(formatCents(c)) === c));
  });
  it("typed amounts parse to what was typed, with exactly 2 decimals out", () => {
    fc.assert(
      fc.property(positive, fc.boolean(), (c, comma) => {
        const text = formatCents(c).replace(".", comma ? "," : ".");
        const r = parseAmountInput(text);
        return r.ok && r.cents === c && r.text === formatCents(c) && /^\d+\.\d{2}$/.test(r.text);
      }),
    );
  });
  it("trailing zeros and missing decimals are the same amount", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), (units) => {
        const a = parseAmountInput(`${units}`);
        const b = parseAmountInput(`${units}.000`);
        return a.ok && b.ok && a.cents === b.cents && a.cents === units * 100n;
      }),
    );
  });
});

describe("amount messages at their boundaries (docs/spec.md §5)", () => {
  const err = (t: string, p: "send" | "request" = "send") => {
    const r = parseAmountInput(t, p);
    return r.ok ? null : renderMsg(r.error);
  };
  it("greater than 0", () => {
    for (const t of ["0", "0.00", "0,0", "", "   ", "-1", "abc", "."]) expect(err(t)).toBe(M.amountSendNotPositive);
    expect(err("0", "request")).toBe(M.amountRequestNotPositive);
    expect(err("0.01")).toBeNull();
  });
  it("at most 2 decimals", () => {
    expect(err("1.001")).toBe(M.amountTooManyDecimals);
    expect(err("1.999")).toBe(M.amountTooManyDecimals);
    expect(err("1.990")).toBeNull();
    expect(err("1.99")).toBeNull();
  });
  it("at most the largest safe integer / 128", () => {
    expect(err(MAX_AMOUNT_TEXT)).toBeNull();
    expect(err("70368744177664.00")).toBe("Amount to send is too large (<= 70368744177663.99)");
    expect(err("99999999999999999999")).toBe("Amount to send is too large (<= 70368744177663.99)");
  });
  it("what a number parser would read differently is refused as unexpected", () => {
    for (const t of ["1e3", "0x10", "+5", "Infinity"]) expect(err(t)).toBe(t === "Infinity" ? M.amountSendNotPositive : M.amountUnexpected);
  });
  it("memos up to 50 characters (not bytes)", () => {
    expect(memoProblem("é".repeat(50))).toBeNull();
    expect(memoProblem("x".repeat(51))?.id).toBe("the message description is too long");
  });
});

describe("the split rule", () => {
  const floor = fc.bigInt({ min: -100_000n, max: 0n });
  const payer = fc
    .record({ nant: fc.bigInt({ min: 0n, max: 100_000n }), cmFloor: floor })
    .chain((p) => fc.record({ nant: fc.constant(p.nant), cmFloor: fc.constant(p.cmFloor), cm: fc.bigInt({ min: p.cmFloor, max: 100_000n }) }));
  const payee = fc
    .option(fc.bigInt({ min: 0n, max: 100_000n }), { nil: null })
    .chain((ceiling) => fc.record({ cmCeiling: fc.constant(ceiling), cm: fc.bigInt({ min: -100_000n, max: ceiling ?? 100_000n }) }));
  it("never breaks a floor or a ceiling, and pays exactly the amount or refuses", () => {
    fc.assert(
      fc.property(payer, payee, fc.bigInt({ min: 1n, max: 300_000n }), (a, b, amount) => {
        const r = splitPayment(amount, a, b);
        if (!r.ok) return amount > spendable(a, b) && r.spendable <= spendable(a, b);
        const { cm, nant } = r.split;
        return (
          cm + nant === amount &&
          cm >= 0n &&
          nant >= 0n &&
          a.nant - nant >= 0n &&
          a.cm - cm >= a.cmFloor &&
          (b.cmCeiling === null || b.cm + cm <= b.cmCeiling) &&
          amount <= spendable(a, b)
        );
      }),
    );
  });
  it("spends positive mutual credit first, then pledged money, then credit", () => {
    const payeeFree = { cm: 0n, cmCeiling: null };
    expect(splitPayment(500n, { nant: 1000n, cm: 300n, cmFloor: -1000n }, payeeFree)).toEqual({ ok: true, split: { cm: 300n, nant: 200n } });
    expect(splitPayment(1500n, { nant: 1000n, cm: 300n, cmFloor: -1000n }, payeeFree)).toEqual({ ok: true, split: { cm: 500n, nant: 1000n } });
    expect(splitPayment(500n, { nant: 1000n, cm: 300n, cmFloor: -1000n }, { cm: 950n, cmCeiling: 1000n })).toEqual({
      ok: true,
      split: { cm: 50n, nant: 450n },
    });
    expect(splitPayment(2500n, { nant: 1000n, cm: 300n, cmFloor: -1000n }, payeeFree)).toEqual({ ok: false, spendable: 2300n });
  });
});

describe("CSV (docs/spec.md §9)", () => {
  it("quotes every field, doubles quotes, ends every line with CRLF, names the sender by the sign", () => {
    const csv = transactionsCsv(
      "Alice Martin",
      [
        { amount: "-12.50", related: "Bob Durand", date: new Date(2026, 2, 4, 9, 5, 7), description: 'Bread "sourdough"' },
        { amount: "3.00", related: "Carol, Petit", date: new Date(2026, 2, 5, 18, 0, 0), description: "" },
      ],
      { source: "Source", target: "Target", amount: "Amount", date: "Date", description: "Description" },
    );
    expect(csv).toBe(
      '"Source","Target","Amount","Date","Description"\r\n' +
        '"Alice Martin","Bob Durand","-12.50","2026-03-04 09:05:07","Bread ""sourdough"""\r\n' +
        '"Carol, Petit","Alice Martin","3.00","2026-03-05 18:00:00",""\r\n',
    );
    expect(csvFileName(null)).toBe("transactions.csv");
    expect(csvFileName({ start: new Date(2026, 0, 1), end: new Date(2026, 0, 31) })).toBe("transactions_2026-01-01_2026-01-31.csv");
  });
});

describe("signed transfer message", () => {
  it("puts every deciding field on its own line and cannot be forged through a memo", () => {
    const base = {
      from: "ledger:aa",
      to: "ledger:bb",
      parts: [{ account: "cm" as const, amount: "1.00" }],
      senderMemo: "x",
      recipientMemo: "y",
      key: "k1",
      at: "2026-01-01T00:00:00.000Z",
    };
    const m = canonicalTransferMessage(base);
    expect(m.split("\n")).toHaveLength(8);
    expect(canonicalTransferMessage({ ...base, senderMemo: "x\nto: ledger:evil" }).split("\n")).toHaveLength(8);
    expect(canonicalTransferMessage({ ...base, parts: [{ account: "cm", amount: "1.01" }] })).not.toBe(m);
  });
});
