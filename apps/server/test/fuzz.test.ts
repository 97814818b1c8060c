import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { buildPath, pathParamNames, pathWithAll, routes, type PathParams, type RouteName } from "@mutua/domain";
import { schemas } from "@mutua/domain/api/schemas";
import { strict } from "../src/http/contract";
import { ledgerViolations } from "../src/services/ledger/ledger";
import { openCustodialWallet } from "../src/services/wallets/wallets";
import { createBackend, http, memberToken, NO_WEB_DIR, seedMember, topUp } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * Bad input, generated: every body, query and path parameter of the contract gets wrong types,
 * huge and negative numbers, 3 decimals, exponents, control and right-to-left characters, SQL and
 * HTML, missing and extra fields. Whatever the schema refuses must be a 4xx with a message and
 * leave every table as it was; nothing may ever be a 5xx.
 */
const t = setupServerTest({ server: { env: { WEB_DIR: NO_WEB_DIR } } });
let token: string;
let other: string;
let walletId: string;

/** Everything but the rate-limit counters, which bad requests are meant to move. */
const TABLES = [
  "members",
  "sessions",
  "password_resets",
  "currencies",
  "backends",
  "wallets",
  "accounts",
  "movements",
  "postings",
  "favorites",
  "audit_log",
  "topup_orders",
  "reconversions",
  "pins",
  "passkeys",
  "webauthn_challenges",
  "device_logins",
  "payment_requests",
];

async function snapshot(): Promise<string[]> {
  const out: string[] = [];
  for (const table of TABLES) {
    // A session's last_seen_at moves with use, by design; what a session is does not.
    const row = table === "sessions" ? "(t.token_hash, t.member_id, t.expires_at, t.revoked_at)::text" : "t::text";
    const { rows } = await t.db.query<{ h: string }>(`SELECT md5(coalesce(string_agg(${row}, ',' ORDER BY ${row}), '')) AS h FROM ${table} t`);
    out.push(`${table}:${rows[0]!.h}`);
  }
  return out;
}

beforeAll(async () => {
  const backend = await createBackend(t.db, { kind: "custodial" });
  const m = await seedMember(t.db, { canValidateAccounts: true, canValidateCredits: true, canManageAssociation: true });
  walletId = await openCustodialWallet(t.db, backend, m.id, "active");
  await topUp(t.db, walletId, "50.00");
  token = await memberToken(t.db, m.id);
  // The member the members' pages name: another, or signing "them" out everywhere would end the fuzzer's own session.
  other = String((await seedMember(t.db)).id);
});

const NASTY_STRINGS = [
  "",
  " ",
  "1.234",
  "1e3",
  "-1.00",
  "0.00",
  "0",
  "-0",
  "NaN",
  "Infinity",
  "0x10",
  "1,5",
  "١٢٣",
  "9".repeat(400),
  "'; DROP TABLE members; --",
  '" OR 1=1 --',
  "<img src=x onerror=alert(1)>",
  "<script>alert(1)</script>",
  "\u0000",
  "a\u0000b",
  "\u202eevil",
  "\r\nSet-Cookie: x=1",
  "😀".repeat(60),
  "../../etc/passwd",
  "%00",
  "null",
  "true",
  "[]",
  "{}",
];
const nastyString = fc.oneof(fc.constantFrom(...NASTY_STRINGS), fc.string({ unit: "binary", maxLength: 120 }));
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 63),
  fc.double({ noNaN: true }),
  fc.integer(),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
);

const shapeKeys = (s: z.ZodType | undefined): string[] => {
  const shape = (s as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
};
/** Objects over the schema's own keys (any of them missing) plus sometimes one it does not know, or no object at all. */
const bodyFor = (keys: string[]): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.record(Object.fromEntries(keys.map((k) => [k, nastyValue])), { requiredKeys: [] }),
    fc
      .tuple(
        fc.record(Object.fromEntries(keys.map((k) => [k, nastyValue])), { requiredKeys: [] }),
        fc.constantFrom("extra", "__proto__x", "amount2"),
        nastyValue,
      )
      .map(([o, k, v]) => ({ ...o, [k]: v })),
    fc.jsonValue({ maxDepth: 3 }),
  );
const queryFor = (keys: string[]) =>
  fc.record(Object.fromEntries([...keys, "extra"].map((k) => [k, nastyString])), { requiredKeys: [] }) as fc.Arbitrary<Record<string, string>>;

type Schema = { body?: z.ZodType; query?: z.ZodType; params?: z.ZodType };
const fuzzed = (Object.keys(routes) as RouteName[]).filter((n) => {
  const s = schemas[n] as Schema;
  return s.body || s.query || s.params;
});

/** The path of a call whose parameters the test makes up (the route's own keys, any values). */
const pathWith = (name: RouteName, params: Record<string, string>): string => buildPath(name, params as PathParams<RouteName>);

describe("bad input", () => {
  it.each(fuzzed)("%s: refused with a 4xx and a message, nothing written, never a 5xx", async (name) => {
    const s = schemas[name] as Schema;
    const paramKeys = pathParamNames(name);
    // Path parameters stay valid-looking where the schema has none to fuzz, so the body is what gets checked.
    const validParams = Object.fromEntries(
      paramKeys.map((k) => [k, k === "walletId" ? walletId : k === "memberId" ? other : "00000000-0000-0000-0000-000000000000"]),
    );
    const args = fc.record({
      body: s.body ? bodyFor(shapeKeys(s.body)) : fc.constant(undefined),
      query: s.query ? queryFor(shapeKeys(s.query)) : fc.constant({}),
      params: s.params ? fc.oneof(fc.constant(validParams), fc.record(Object.fromEntries(paramKeys.map((k) => [k, nastyString])))) : fc.constant(validParams),
    });
    await fc.assert(
      fc.asyncProperty(args, async ({ body, query, params }) => {
        const before = await snapshot();
        const qs = new URLSearchParams(query).toString();
        const r = await http<{ error?: { message?: string } }>(
          t.server.baseUrl,
          routes[name].method,
          `${pathWith(name, params as Record<string, string>)}${qs ? `?${qs}` : ""}`,
          {
            token,
            ...(body !== undefined ? { body } : {}),
          },
        );
        expect(r.status, `${r.status} ${r.text.slice(0, 300)}`).toBeLessThan(500);
        const valid =
          (!s.body || strict(s.body).safeParse(body).success) &&
          (!s.query || strict(s.query).safeParse(query).success) &&
          (!s.params || s.params.safeParse(params).success);
        if (!valid) {
          expect(r.status, `${name} accepted ${JSON.stringify({ body, query, params }).slice(0, 300)}`).toBeGreaterThanOrEqual(400);
        }
        if (r.status >= 400) {
          // The unsubscribe link's pages answer a page that says what is wrong; the API answers JSON.
          if (r.headers.get("content-type")?.startsWith("text/html")) expect(r.text).toMatch(/<h1>[^<]+<\/h1><p>[^<]+<\/p>/);
          else expect(typeof r.json?.error?.message === "string" && r.json.error.message.length > 0, r.text.slice(0, 200)).toBe(true);
          expect(await snapshot()).toEqual(before);
        }
      }),
      // CI replays one seed; FUZZ_SEED and FUZZ_RUNS explore further by hand.
      { numRuns: Number(process.env.FUZZ_RUNS ?? 25), seed: Number(process.env.FUZZ_SEED ?? 20261123) },
    );
  });

  it("refuses a 10 MB body with 413 and a message", async () => {
    const r = await http<{ error: { message: string } }>(t.server.baseUrl, "POST", buildPath("transfer"), {
      token,
      rawBody: JSON.stringify({ senderMemo: "x".repeat(10 * 1024 * 1024) }),
      headers: { "content-type": "application/json" },
    });
    expect(r.status).toBe(413);
    expect(r.json.error.message).toBeTruthy();
  });

  it.each([
    ["an array", (n: number) => "[".repeat(n) + "]".repeat(n)],
    ["an object", (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n)],
  ])("refuses JSON nested 10,000 deep (%s) with 400 on every route with a body, anonymous ones too", async (_, nested) => {
    const before = await snapshot();
    for (const name of Object.keys(routes) as RouteName[]) {
      if (!(schemas[name] as Schema).body) continue;
      for (const auth of [{ token }, {}]) {
        const r = await http<{ error: { code: string; message: string } }>(
          t.server.baseUrl,
          routes[name].method,
          pathWithAll(name, "00000000-0000-0000-0000-000000000000"),
          {
            ...auth,
            rawBody: nested(10_000),
            headers: { "content-type": "application/json" },
          },
        );
        // Anonymous calls of private routes are refused for the session first.
        expect([400, 401], `${name} ${r.status} ${r.text.slice(0, 200)}`).toContain(r.status);
        expect(r.json.error.message).toBeTruthy();
        if (r.status === 400) expect(r.json.error.code).toBe("validation_failed");
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it("refuses transaction cursors and dates that PostgreSQL would not take with 400, never 500", async () => {
    const cursor = (s: string) => Buffer.from(s).toString("base64url");
    const badDate = fc.constantFrom(
      "2020-02-30T00:00:00.000000Z",
      "2021-13-01T00:00:00.000000Z",
      "0000-01-01T00:00:00.000000Z",
      "275760-09-13T00:00:00.000Z",
      "0000-01-01T00:00:00Z",
      "-001000-01-01T00:00:00Z",
      "2020-01-01T25:00:00Z",
      "Tue",
      "1",
      "2020",
      "2020-01-01T00:00:00.000000Z\u0001",
      "9999-12-31T23:59:60.999999Z",
    );
    const badId = fc.constantFrom("1", "9223372036854775807", "9223372036854775808", "9999999999999999999", "0", "-1", "1e3");
    const path = buildPath("getTransactions", { walletId });
    await fc.assert(
      fc.asyncProperty(badDate, badId, fc.constantFrom("cursor", "from", "to"), async (at, id, field) => {
        const value = field === "cursor" ? cursor(`${at}|${id}`) : at;
        const r = await http<{ error?: { message?: string } }>(t.server.baseUrl, "GET", `${path}?${new URLSearchParams({ [field]: value })}`, { token });
        expect(r.status, `${field}=${at}|${id}: ${r.text.slice(0, 200)}`).toBeLessThan(500);
        if (r.status !== 200) expect(r.status).toBe(400);
      }),
      { numRuns: 60, seed: Number(process.env.FUZZ_SEED ?? 20261124) },
    );
    // A cursor that is not one of ours is said to be wrong, not silently ignored.
    const r = await http<{ error: { code: string } }>(t.server.baseUrl, "GET", `${path}?cursor=${cursor("2020-02-30T00:00:00.000000Z|1")}`, { token });
    expect(r.status).toBe(400);
  });

  it("leaves the ledger consistent", async () => {
    expect(await ledgerViolations(t.db)).toEqual([]);
  });
});
