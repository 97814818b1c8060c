import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { M } from "@mutua/domain";
import { encryptKeystore, newPrivateKey } from "@mutua/wallet";
import { ledgerViolations } from "../src/services/ledger";
import type { BackendRow } from "../src/services/wallets";
import { Api, createBackend, createTestDatabase, memberToken, seedMember, startServer, type TestDatabase, type TestServer } from "./helpers";

/** A member opens a wallet: pending until approved, one per backend, ledger wallets by their keystore only. */
let tdb: TestDatabase;
let server: TestServer;
let custodial: BackendRow;
let ledger: BackendRow;
let member: Api;
let admin: Api;

beforeAll(async () => {
  tdb = await createTestDatabase();
  server = await startServer(tdb.db);
  custodial = await createBackend(tdb.db, { kind: "custodial" });
  ledger = await createBackend(tdb.db, { kind: "ledger", cmFloor: "-10.00", cmCeiling: "50.00" });
  member = new Api(server.baseUrl, await memberToken(tdb.db, (await seedMember(tdb.db)).id));
  admin = new Api(server.baseUrl, await memberToken(tdb.db, (await seedMember(tdb.db, { canValidateAccounts: true })).id));
});
afterEach(async () => expect(await ledgerViolations(tdb.db)).toEqual([]));
afterAll(async () => {
  await server?.close();
  await tdb?.drop();
});

describe("creating a wallet", () => {
  it("opens a pending custodial wallet, refuses a second one, and allows one again after a discard", async () => {
    const first = await member.call("createUserAccount", { body: { backendId: custodial.id } });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ status: "pending" });
    expect(first.json.internalId).toMatch(/^custodial:/);
    const accounts = await member.call("getAccounts");
    expect(accounts.json.find((a: { id: string }) => a.id === first.json.internalId)).toMatchObject({ status: "pending", active: false, bal: null });

    const again = await member.call("createUserAccount", { body: { backendId: custodial.id } });
    expect(again.status).toBe(409);
    expect(again.json.error.message).toBe(M.walletAlreadyCreated);

    expect((await admin.call("discardCreateRequest", { body: { walletId: first.json.internalId } })).status).toBe(200);
    const third = await member.call("createUserAccount", { body: { backendId: custodial.id } });
    expect(third.status).toBe(200);
    expect((await admin.call("validateCreation", { body: { walletId: third.json.internalId } })).status).toBe(200);
    const after = await member.call("getAccounts");
    expect(after.json.find((a: { id: string }) => a.id === third.json.internalId)).toMatchObject({ status: "active", active: true, bal: "0.00" });
  });

  it("keeps only the public part of a ledger wallet: the address and the encrypted keystore", async () => {
    const key = newPrivateKey();
    const keystore = await encryptKeystore(key, "Wallet-pass-1", { n: 1024 });
    const r = await member.call("createUserAccount", { body: { backendId: ledger.id, keystore: keystore as unknown as Record<string, unknown> } });
    expect(r.status).toBe(200);
    expect(r.json.internalId).toBe(`ledger:${keystore.address}`);
    const stored = await tdb.db.query<{ keystore: { crypto: { ciphertext: string } }; address: string }>("SELECT keystore, address FROM wallets WHERE id = $1", [r.json.internalId]);
    expect(stored.rows[0]!.address).toBe(keystore.address);
    expect(stored.rows[0]!.keystore.crypto.ciphertext).toBe(keystore.crypto.ciphertext);
    expect(JSON.stringify(stored.rows[0])).not.toContain(Buffer.from(key).toString("hex"));
    const subs = await tdb.db.query<{ kind: string; floor: bigint; ceiling: bigint | null }>("SELECT kind, floor, ceiling FROM accounts WHERE wallet_id = $1 ORDER BY kind", [r.json.internalId]);
    expect(subs.rows.map((s) => [s.kind, String(s.floor), s.ceiling === null ? null : String(s.ceiling)])).toEqual([
      ["cm", "-1000", "5000"],
      ["nant", "0", null],
    ]);
  });

  it("refuses a ledger wallet without a valid keystore, and the same key twice", async () => {
    const other = new Api(server.baseUrl, await memberToken(tdb.db, (await seedMember(tdb.db)).id));
    expect((await other.call("createUserAccount", { body: { backendId: ledger.id } })).status).toBe(400);
    expect((await other.call("createUserAccount", { body: { backendId: ledger.id, keystore: { version: 3, address: "zz" } } })).status).toBe(400);
    const keystore = await encryptKeystore(newPrivateKey(), "pw", { n: 1024 });
    expect((await other.call("createUserAccount", { body: { backendId: ledger.id, keystore: keystore as unknown as Record<string, unknown> } })).status).toBe(200);
    const thief = new Api(server.baseUrl, await memberToken(tdb.db, (await seedMember(tdb.db)).id));
    const dup = await thief.call("createUserAccount", { body: { backendId: ledger.id, keystore: keystore as unknown as Record<string, unknown> } });
    expect(dup.status).toBe(409);
  });

  it("answers 404 for an unknown backend and 401 anonymously", async () => {
    expect((await member.call("createUserAccount", { body: { backendId: "custodial:nope" } })).status).toBe(404);
    expect((await new Api(server.baseUrl).call("createUserAccount", { body: { backendId: custodial.id } })).status).toBe(401);
  });
});
