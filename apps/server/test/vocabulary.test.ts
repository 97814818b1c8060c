import { beforeAll, describe, expect, it } from "vitest";
import {
  BACKEND_KINDS,
  BUSINESS_STATUSES,
  BACKEND_STATUSES,
  CREDENTIAL_KINDS,
  EVENT_KINDS,
  FEDERATION_LINK_ROLES,
  FEDERATION_LINK_STATES,
  FEDERATION_LINK_ENDERS,
  FEDERATION_PAYMENT_DIRECTIONS,
  FEDERATION_PAYMENT_STATES,
  FEDERATION_END_OUTCOMES,
  FEDERATION_KEY_STATES,
  FEDERATION_PEER_KEY_STATES,
  FEDERATION_PEER_KEY_REPLACERS,
  FEDERATION_SETTLEMENT_CURRENCIES,
  FEDERATION_SETTLEMENT_DIRECTIONS,
  FEDERATION_SETTLEMENT_ORIGINS,
  FEDERATION_SETTLEMENT_STATES,
  SETTLEMENT_NOTE_MAX,
  HELD_WALLET_RELEASES,
  LIMITS,
  LOGO_TYPES,
  PHOTO_TYPES,
  IMPORT_FILE_KINDS,
  M,
  MEMBER_LANGUAGES,
  MOVEMENT_KINDS,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  MARKET_CATEGORIES,
  DUES_MODES,
  DUES_PERIODS,
  DUES_STATUSES,
  MARKET_KINDS,
  PASSKEY_CHALLENGE_PURPOSES,
  PAYMENT_REQUEST_STATUSES,
  LEDGER_CHECK_TRIGGERS,
  PREFERENCE_CHANNELS,
  RECONVERSION_STATUSES,
  SUB_ACCOUNTS,
  TOPUP_STATES,
  WALLET_ROLES,
  WALLET_STATUSES,
  STANDING_ORDER_FREQUENCIES,
  STANDING_ORDER_OUTCOMES,
  STANDING_ORDER_STATES,
  buildPath,
  routes,
} from "@mutua/domain";
import { http, memberToken, seedMember } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * One source per closed list and limit: the domain declares them (packages/domain/src/vocabulary.ts),
 * the contract is built from them, and here the database's CHECK constraints and the published
 * OpenAPI document are read back and compared with them. A state added to a migration and not to
 * the domain (or the other way round) fails here.
 */

/** table.column → the domain's list its CHECK must allow, exactly. */
const ENUM_COLUMNS: Record<string, readonly string[]> = {
  "association.logo_type": LOGO_TYPES,
  "member_photos.type": PHOTO_TYPES,
  "market_offer_photos.type": PHOTO_TYPES,
  "market_offers.kind": MARKET_KINDS,
  "dues_plan.mode": DUES_MODES,
  "dues_plan.period": DUES_PERIODS,
  "dues_runs.status": DUES_STATUSES,
  "standing_orders.frequency": STANDING_ORDER_FREQUENCIES,
  "standing_orders.state": STANDING_ORDER_STATES,
  "standing_order_runs.outcome": STANDING_ORDER_OUTCOMES,
  "market_offers.category": MARKET_CATEGORIES,
  "businesses.photo_type": PHOTO_TYPES,
  "businesses.status": BUSINESS_STATUSES,
  "import_uploads.kind": IMPORT_FILE_KINDS,
  "import_mappings.kind": IMPORT_FILE_KINDS,
  "backends.kind": BACKEND_KINDS,
  "backends.status": BACKEND_STATUSES,
  "wallets.role": WALLET_ROLES,
  "wallets.status": WALLET_STATUSES,
  "import_held_wallets.release_to": HELD_WALLET_RELEASES,
  "accounts.kind": SUB_ACCOUNTS,
  "movements.kind": MOVEMENT_KINDS,
  "topup_orders.state": TOPUP_STATES,
  "reconversions.status": RECONVERSION_STATUSES,
  "webauthn_challenges.purpose": PASSKEY_CHALLENGE_PURPOSES,
  "member_events.kind": EVENT_KINDS,
  "member_events.stage": RECONVERSION_STATUSES,
  "members.language": MEMBER_LANGUAGES,
  // Chosen kind by kind in Preferences: e-mail only (a device's push subscription is its opt-in).
  "notification_preferences.channel": PREFERENCE_CHANNELS,
  "notification_preferences.kind": NOTIFICATION_KINDS,
  "notification_deliveries.channel": NOTIFICATION_CHANNELS,
  "notification_deliveries.kind": NOTIFICATION_KINDS,
  "payment_requests.status": PAYMENT_REQUEST_STATUSES,
  "ledger_checks.trigger": LEDGER_CHECK_TRIGGERS,
  "federation_links.role": FEDERATION_LINK_ROLES,
  "federation_links.state": FEDERATION_LINK_STATES,
  "federation_links.ended_by": FEDERATION_LINK_ENDERS,
  "federation_payments.direction": FEDERATION_PAYMENT_DIRECTIONS,
  "federation_payments.state": FEDERATION_PAYMENT_STATES,
  "federation_payments.end_outcome": FEDERATION_END_OUTCOMES,
  "federation_keys.state": FEDERATION_KEY_STATES,
  "federation_peer_keys.state": FEDERATION_PEER_KEY_STATES,
  "federation_peer_keys.replaced_by": FEDERATION_PEER_KEY_REPLACERS,
  "federation_settlements.origin": FEDERATION_SETTLEMENT_ORIGINS,
  "federation_settlements.direction": FEDERATION_SETTLEMENT_DIRECTIONS,
  "federation_settlements.given": FEDERATION_SETTLEMENT_CURRENCIES,
  "federation_settlements.state": FEDERATION_SETTLEMENT_STATES,
};

/** table.column → the domain's bounds on its length in characters, as its CHECK states them. */
const LENGTH_COLUMNS: Record<string, { min?: number; max: number }> = {
  "movements.sender_memo": { max: LIMITS.memo },
  "movements.recipient_memo": { max: LIMITS.memo },
  "payment_requests.sender_memo": { max: LIMITS.memo },
  "payment_requests.recipient_memo": { max: LIMITS.memo },
  "movements.idempotency_key": { min: LIMITS.idempotencyKeyMin, max: LIMITS.idempotencyKeyMax },
  "passkeys.name": { max: LIMITS.deviceName },
  "device_logins.name": { max: LIMITS.deviceName },
  "passkeys.credential_id": { min: 1, max: LIMITS.credentialId },
  "wallets.frozen_reason": { min: 1, max: LIMITS.freezeReason },
  "federation_settlements.note": { max: SETTLEMENT_NOTE_MAX },
};

const t = setupServerTest();
let checks: { table: string; def: string }[];

beforeAll(async () => {
  const { rows } = await t.db.query<{ table: string; def: string }>(
    `SELECT conrelid::regclass::text AS table, pg_get_constraintdef(oid) AS def
       FROM pg_constraint WHERE contype = 'c' AND connamespace = 'public'::regnamespace ORDER BY 1, 2`,
  );
  checks = rows;
});

/** The values of `col = ANY (ARRAY['a'::text, …])`, PostgreSQL's spelling of `col IN ('a', …)`. */
function listsIn(def: string): { column: string; values: string[]; whole: boolean }[] {
  const found: { column: string; values: string[]; whole: boolean }[] = [];
  for (const m of def.matchAll(/\(?(\w+) = ANY \(ARRAY\[([^\]]*)\]\)\)?/g)) {
    const values = [...m[2]!.matchAll(/'([^']*)'::text/g)].map((v) => v[1]!);
    found.push({ column: m[1]!, values, whole: def === `CHECK ((${m[1]} = ANY (ARRAY[${m[2]}])))` });
  }
  // A list of one (`col IN ('email')`) is spelt `col = 'email'::text`: read as a whole list only.
  const one = /^CHECK \(\((\w+) = '([^']*)'::text\)\)$/.exec(def);
  if (one) found.push({ column: one[1]!, values: [one[2]!], whole: true });
  return found;
}

describe("the database's CHECK constraints", () => {
  it("allow exactly the domain's list for every closed column, and no list the domain does not know", () => {
    const seen = new Set<string>();
    for (const { table, def } of checks) {
      for (const { column, values, whole } of listsIn(def)) {
        const key = `${table}.${column}`;
        const domain = ENUM_COLUMNS[key];
        expect(domain, `${key}: a CHECK lists values (${def}) that no domain list declares`).toBeDefined();
        // Constraints tying states to other columns name a subset; the column's own CHECK names them all.
        for (const v of values) expect(domain, `${key} in ${def}`).toContain(v);
        if (whole) {
          expect([...values].sort(), `${key}: ${def}`).toEqual([...domain!].sort());
          seen.add(key);
        }
      }
    }
    expect([...seen].sort()).toEqual(Object.keys(ENUM_COLUMNS).sort());
  });

  it("bound text lengths as the domain's limits say", () => {
    for (const [key, { min, max }] of Object.entries(LENGTH_COLUMNS)) {
      const [table, column] = key.split(".") as [string, string];
      const defs = checks.filter((c) => c.table === table && c.def.includes(`(${column})`)).map((c) => c.def);
      const bounds = defs.flatMap((d) => [...d.matchAll(new RegExp(`(?:char_)?length\\(${column}\\) ([<>]=) (\\d+)`, "g"))]);
      const upper = bounds.filter((b) => b[1] === "<=").map((b) => Number(b[2]));
      const lower = bounds.filter((b) => b[1] === ">=").map((b) => Number(b[2]));
      expect(upper, `${key}: ${defs.join(" | ")}`).toEqual([max]);
      if (min !== undefined) expect(lower, `${key}: ${defs.join(" | ")}`).toEqual([min]);
    }
  });
});

type JsonSchema = {
  type?: string;
  enum?: string[];
  maxLength?: number;
  minLength?: number;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
};
type OpenApi = {
  paths: Record<
    string,
    Record<
      string,
      { requestBody?: { content: Record<string, { schema: JsonSchema }> }; responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }> }
    >
  >;
};

describe("the published contract (OpenAPI)", () => {
  let doc: OpenApi;
  beforeAll(async () => {
    doc = (await http<OpenApi>(t.server.baseUrl, "GET", "/api/docs/json")).json;
  });
  const body = (name: keyof typeof routes): JsonSchema => {
    const r = routes[name];
    return doc.paths[r.path.replace(/:(\w+)/g, "{$1}")]![r.method.toLowerCase()]!.requestBody!.content["application/json"]!.schema;
  };
  const answer = (name: keyof typeof routes): JsonSchema => {
    const r = routes[name];
    return doc.paths[r.path.replace(/:(\w+)/g, "{$1}")]![r.method.toLowerCase()]!.responses["200"]!.content!["application/json"]!.schema;
  };
  const enumOf = (s: JsonSchema | undefined): string[] => [...(s?.enum ?? s?.anyOf?.flatMap((a) => a.enum ?? []) ?? [])].sort();

  it("says what the domain says of memos and idempotency keys", () => {
    const t = body("transfer").properties!;
    expect(t.senderMemo!.maxLength).toBe(LIMITS.memo);
    expect(t.recipientMemo!.maxLength).toBe(LIMITS.memo);
    expect([t.key!.minLength, t.key!.maxLength]).toEqual([LIMITS.idempotencyKeyMin, LIMITS.idempotencyKeyMax]);
  });

  it("lists the domain's states and kinds", () => {
    const tx = answer("transfer").properties!;
    expect(enumOf(tx.kind)).toEqual([...MOVEMENT_KINDS].sort());
    expect(enumOf(tx.reconversionStatus)).toEqual([...RECONVERSION_STATUSES].sort());
    expect(enumOf(body("transfer").properties!.parts!.items!.properties!.account)).toEqual([...SUB_ACCOUNTS].sort());
    expect(enumOf(answer("getBackends").items!.properties!.kind)).toEqual([...BACKEND_KINDS].sort());
    expect(enumOf(answer("getPendingTopUps").items!.properties!.state)).toEqual([...TOPUP_STATES].sort());
    expect(enumOf(answer("listMemberWallets").items!.properties!.status)).toEqual([...WALLET_STATUSES].sort());
    expect(enumOf(answer("listDevices").items!.properties!.kind)).toEqual([...CREDENTIAL_KINDS].sort());
    // What a member sees of their own wallets: never a discarded one.
    expect(enumOf(answer("getAccounts").items!.properties!.status)).toEqual(WALLET_STATUSES.filter((s) => s !== "discarded").sort());
  });
});

describe("the server's check of a memo", () => {
  it("counts characters as the database does and answers in the spec's words", async () => {
    const me = await seedMember(t.db, { email: "memo@example.com" });
    const token = await memberToken(t.db, me.id);
    const base = { from: "custodial:1", to: "custodial:2", parts: [{ account: "main", amount: "1.00" }], key: "memo-test-key" };
    const long = await http<{ error: { msgid: string; fields: Record<string, { msgid: string }> } }>(t.server.baseUrl, "POST", buildPath("transfer"), {
      token,
      body: { ...base, senderMemo: "x".repeat(LIMITS.memo + 1) },
    });
    expect(long.status).toBe(400);
    expect(long.json.error.msgid).toBe(M.memoTooLong);
    expect(long.json.error.fields).toEqual({ senderMemo: { msgid: M.memoTooLong } });
    // Fifty emoji are fifty characters (a hundred UTF-16 units): past the contract, refused only for the unknown wallets.
    const emoji = await http<{ error: { msgid: string } }>(t.server.baseUrl, "POST", buildPath("transfer"), {
      token,
      body: { ...base, senderMemo: "😀".repeat(LIMITS.memo) },
    });
    expect(emoji.json.error.msgid).not.toBe(M.memoTooLong);
  });
});
