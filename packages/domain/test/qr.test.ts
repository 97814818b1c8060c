import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { M, decodeQrContent, encodeQrPayload, paymentLink, safeFileName, type QrPayload } from "../src";

const ME = 7;

describe("QR payloads", () => {
  it("are Monujo's JSON, field for field", () => {
    expect(encodeQrPayload({ rp: 3, rpb: "custodial:ab" })).toBe('{"rp":3,"rpb":"custodial:ab"}');
    expect(encodeQrPayload({ rp: 3, rpb: "ledger:cd", amount: "12.34", senderMemo: "Bread", recipientMemo: "Bread" })).toBe(
      '{"rp":3,"rpb":"ledger:cd","amount":"12.34","senderMemo":"Bread","recipientMemo":"Bread"}',
    );
  });

  const payload: fc.Arbitrary<QrPayload> = fc.record(
    {
      rp: fc.integer({ min: 1, max: 2 ** 40 }).filter((n) => n !== ME),
      rpb: fc.string({ minLength: 1, maxLength: 60 }),
      amount: fc.bigInt({ min: 1n, max: 10n ** 12n }).map((c) => `${c / 100n}.${(c % 100n).toString().padStart(2, "0")}`),
      senderMemo: fc.option(fc.string({ maxLength: 50 }), { nil: null }),
      recipientMemo: fc.option(fc.string({ maxLength: 50 }), { nil: null }),
    },
    { requiredKeys: ["rp", "rpb"] },
  );

  it("round-trip through JSON and through the payment link", () => {
    fc.assert(
      fc.property(payload, (p) => {
        const full = p.amount
          ? { rp: p.rp, rpb: p.rpb, amount: p.amount, senderMemo: p.senderMemo ?? null, recipientMemo: p.recipientMemo ?? null }
          : { rp: p.rp, rpb: p.rpb };
        const viaJson = decodeQrContent(encodeQrPayload(p), ME);
        const viaLink = decodeQrContent(paymentLink("https://wallet.example.org", p), ME);
        return (
          viaJson.ok &&
          viaLink.ok &&
          JSON.stringify(viaJson.payload) === JSON.stringify(full) &&
          viaLink.payload.rp === p.rp &&
          viaLink.payload.rpb === p.rpb &&
          viaLink.payload.amount === p.amount
        );
      }),
    );
  });

  it("give each malformed content its message", () => {
    const err = (c: string | null) => {
      const r = decodeQrContent(c, ME);
      return r.ok ? null : r.error.id;
    };
    expect(err(null)).toBe(M.qrUnreadable);
    expect(err("")).toBe(M.qrUnreadable);
    expect(err("hello")).toBe(M.qrInvalidFormat);
    expect(err("https://example.org/somewhere")).toBe(M.qrInvalidFormat);
    expect(err("[1,2]")).toBe(M.qrInvalidFormat);
    expect(err('{"rp":"x","rpb":"a"}')).toBe(M.qrInvalidFormat);
    expect(err('{"rp":3}')).toBe(M.qrInvalidFormat);
    expect(err('{"rp":3,"rpb":"a","amount":"1.234"}')).toBe(M.qrInvalidFormat);
    expect(err('{"rp":3,"rpb":"a","amount":"-1.00"}')).toBe(M.qrInvalidFormat);
    expect(err(`{"rp":3,"rpb":"a","amount":"1.00","senderMemo":"${"x".repeat(51)}"}`)).toBe(M.qrInvalidFormat);
    expect(err(`{"rp":${ME},"rpb":"mine"}`)).toBe(M.qrOwnAccount);
    expect(err('{"rp":3,"rpb":"a"}')).toBeNull();
  });

  it("carry the server's payment request id as rq, besides Monujo's fields, in the code and the link", () => {
    const requestId = "pr_AbCdEfGhIjKlMnOpQrStU-";
    const p = { rp: 3, rpb: "custodial:ab", amount: "12.50", senderMemo: "Bread", recipientMemo: null, requestId };
    expect(encodeQrPayload(p)).toBe(
      '{"rp":3,"rpb":"custodial:ab","amount":"12.50","senderMemo":"Bread","recipientMemo":null,"rq":"pr_AbCdEfGhIjKlMnOpQrStU-"}',
    );
    const link = paymentLink("https://wallet.example.org", p);
    expect(new URL(link).searchParams.get("rq")).toBe(requestId);
    const fields = { rp: 3, rpb: "custodial:ab", amount: "12.50", senderMemo: "Bread", recipientMemo: null, requestId };
    const viaCode = decodeQrContent(encodeQrPayload(p), ME);
    expect(viaCode.ok && viaCode.payload).toEqual(fields);
    // A link names its server by its own origin.
    const viaLink = decodeQrContent(link, ME);
    expect(viaLink.ok && viaLink.payload).toEqual({ ...fields, server: "https://wallet.example.org" });
    // Monujo's own code, without rq: a plain payment request, as before.
    const monujo = decodeQrContent('{"rp":3,"rpb":"custodial:ab","amount":"12.50","senderMemo":"Bread","recipientMemo":null}', ME);
    expect(monujo.ok && monujo.payload).toEqual({ rp: 3, rpb: "custodial:ab", amount: "12.50", senderMemo: "Bread", recipientMemo: null });
    // A request id only comes with an amount, and in our exact form.
    expect(encodeQrPayload({ rp: 3, rpb: "custodial:ab", requestId })).toBe('{"rp":3,"rpb":"custodial:ab"}');
    for (const rq of ['"pr_short"', '"../../admin"', "12"]) {
      expect(decodeQrContent(`{"rp":3,"rpb":"a","amount":"1.00","rq":${rq}}`, ME).ok, rq).toBe(false);
    }
  });

  it("name the payee's server as srv, after Monujo's fields, and read it back as an origin", () => {
    const server = "https://b.example";
    expect(encodeQrPayload({ rp: 3, rpb: "custodial:ab", server })).toBe('{"rp":3,"rpb":"custodial:ab","srv":"https://b.example"}');
    const requestId = "pr_AbCdEfGhIjKlMnOpQrStU-";
    const p = { rp: 3, rpb: "custodial:ab", amount: "12.50", senderMemo: null, recipientMemo: null, requestId, server };
    expect(encodeQrPayload(p)).toBe(
      '{"rp":3,"rpb":"custodial:ab","amount":"12.50","senderMemo":null,"recipientMemo":null,"rq":"pr_AbCdEfGhIjKlMnOpQrStU-","srv":"https://b.example"}',
    );
    const back = decodeQrContent(encodeQrPayload(p), ME);
    expect(back.ok && back.payload).toEqual(p);
    // Normalised to the origin: a path, query or trailing slash is dropped, the port kept.
    for (const [srv, origin] of [
      ["https://B.example/", "https://b.example"],
      ["http://127.0.0.1:1234/some/path?x=1", "http://127.0.0.1:1234"],
    ]) {
      const r = decodeQrContent(JSON.stringify({ rp: 3, rpb: "a", srv }), ME);
      expect(r.ok && r.payload.server).toBe(origin);
    }
    // Anything else makes the code invalid, rather than silently paying locally.
    for (const srv of ["ftp://b.example", "javascript:alert(1)", "b.example", "", `https://${"b".repeat(300)}.example`, 12, true]) {
      const r = decodeQrContent(JSON.stringify({ rp: 3, rpb: "a", srv }), ME);
      expect(r.ok ? null : r.error.id, String(srv)).toBe(M.qrInvalidFormat);
    }
    // Codes without srv stay Monujo's: no server field at all.
    const monujo = decodeQrContent('{"rp":3,"rpb":"a"}', ME);
    expect(monujo.ok && "server" in monujo.payload).toBe(false);
  });

  it("take a link's own origin as its server, whatever srv it carries", () => {
    const r = decodeQrContent("https://b.example/pay?rp=3&rpb=a&srv=https%3A%2F%2Fevil.example", ME);
    expect(r.ok && r.payload.server).toBe("https://b.example");
  });

  it("read an app's address for paying across as paying the association it names, not a member of the app's own", () => {
    const across = "https://a.example/pay?across=https%3A%2F%2Fb.example&rp=3&rpb=custodial%3Abob&amount=12.50";
    const r = decodeQrContent(across, ME, "https://a.example");
    expect(r.ok && r.payload).toMatchObject({ rp: 3, rpb: "custodial:bob", amount: "12.50", server: "https://b.example" });
    // Its own number on the other association's server is someone else there.
    expect(decodeQrContent(`https://a.example/pay?across=https%3A%2F%2Fb.example&rp=${ME}&rpb=x`, ME, "https://a.example").ok).toBe(true);
    expect(decodeQrContent("https://a.example/pay?across=javascript%3Aalert(1)&rp=3&rpb=x", ME).ok).toBe(false);
  });

  it("refuse the member's own id only on their own server's codes", () => {
    const own = "https://a.example";
    const err = (c: string, origin?: string) => {
      const r = decodeQrContent(c, ME, origin);
      return r.ok ? null : r.error.id;
    };
    expect(err(`{"rp":${ME},"rpb":"mine"}`, own)).toBe(M.qrOwnAccount);
    expect(err(`{"rp":${ME},"rpb":"mine","srv":"${own}"}`, own)).toBe(M.qrOwnAccount);
    expect(err(`{"rp":${ME},"rpb":"mine","srv":"${own}/"}`, `${own}/`)).toBe(M.qrOwnAccount);
    expect(err(`${own}/pay?rp=${ME}&rpb=mine`, own)).toBe(M.qrOwnAccount);
    // Same number, another association: someone else.
    expect(err(`{"rp":${ME},"rpb":"theirs","srv":"https://b.example"}`, own)).toBeNull();
    expect(err(`https://b.example/pay?rp=${ME}&rpb=theirs`, own)).toBeNull();
  });

  it("accept Monujo's numeric rp and amounts written as numbers", () => {
    const r = decodeQrContent('{"rp":"12","rpb":"comchain:abc","amount":5,"senderMemo":null,"recipientMemo":null}', ME);
    expect(r.ok && r.payload).toEqual({ rp: 12, rpb: "comchain:abc", amount: "5.00", senderMemo: null, recipientMemo: null });
  });
});

describe("file names", () => {
  it("are safe on every file system", () => {
    expect(safeFileName('QR code - Payment request to Bob / "Durand" of 12.34 DL (a:b*c?)', "pdf")).toBe(
      "QR code - Payment request to Bob Durand of 12.34 DL (abc).pdf",
    );
    expect(safeFileName("...", "pdf")).toBe("file.pdf");
    expect(safeFileName("x".repeat(300), "pdf").length).toBe(124);
  });
});
