import { beforeAll, describe, expect, it } from "vitest";
import { M, SM } from "@mutua/domain";
import { encryptKeystore, newPrivateKey, type Keystore } from "@mutua/wallet";
import { openLedgerWallet, type BackendRow } from "../src/services/wallets/wallets";
import { Api, createBackend, memberToken, provenWallet, seedMember } from "./helpers";
import { setupServerTest } from "./setup";

/** A member opens a wallet: pending until approved, one per backend, ledger wallets by their keystore only. */
const t = setupServerTest();
let custodial: BackendRow;
let ledger: BackendRow;
let member: Api;
let memberId: bigint;
let admin: Api;

beforeAll(async () => {
  custodial = await createBackend(t.db, { kind: "custodial" });
  ledger = await createBackend(t.db, { kind: "ledger", cmFloor: "-10.00", cmCeiling: "50.00" });
  memberId = (await seedMember(t.db)).id;
  member = new Api(t.server.baseUrl, await memberToken(t.db, memberId));
  admin = new Api(t.server.baseUrl, await memberToken(t.db, (await seedMember(t.db, { canValidateAccounts: true })).id));
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
    const body = await provenWallet(key, memberId, ledger.id);
    const keystore = body.keystore as unknown as Keystore;
    const r = await member.call("createUserAccount", { body });
    expect(r.status).toBe(200);
    expect(r.json.internalId).toBe(`ledger:${keystore.address}`);
    const stored = await t.db.query<{ keystore: { crypto: { ciphertext: string } }; address: string }>("SELECT keystore, address FROM wallets WHERE id = $1", [
      r.json.internalId,
    ]);
    expect(stored.rows[0]!.address).toBe(keystore.address);
    expect(stored.rows[0]!.keystore.crypto.ciphertext).toBe(keystore.crypto.ciphertext);
    expect(JSON.stringify(stored.rows[0])).not.toContain(Buffer.from(key).toString("hex"));
    const subs = await t.db.query<{ kind: string; floor: bigint; ceiling: bigint | null }>(
      "SELECT kind, floor, ceiling FROM accounts WHERE wallet_id = $1 ORDER BY kind",
      [r.json.internalId],
    );
    expect(subs.rows.map((s) => [s.kind, String(s.floor), s.ceiling === null ? null : String(s.ceiling)])).toEqual([
      ["cm", "-1000", "5000"],
      ["nant", "0", null],
    ]);
  });

  it("refuses a ledger wallet without a valid keystore, and the same key twice", async () => {
    const o = await seedMember(t.db);
    const other = new Api(t.server.baseUrl, await memberToken(t.db, o.id));
    expect((await other.call("createUserAccount", { body: { backendId: ledger.id } })).status).toBe(400);
    expect((await other.call("createUserAccount", { body: { backendId: ledger.id, keystore: { version: 3, address: "zz" } } })).status).toBe(400);
    const key = newPrivateKey();
    const body = await provenWallet(key, o.id, ledger.id);
    expect((await other.call("createUserAccount", { body })).status).toBe(200);
    expect((await other.call("createUserAccount", { body: await provenWallet(key, o.id, ledger.id) })).status).toBe(409);
  });
});

describe("claiming a wallet address without its key", () => {
  const walletRow = async (address: string) =>
    (await t.db.query<{ member_id: bigint; status: string }>("SELECT member_id, status FROM wallets WHERE address = $1", [address])).rows[0];

  it("a keystore carrying someone else's address is refused without the key's signature; nothing is written", async () => {
    const victimKey = newPrivateKey();
    const victimKeystore = await encryptKeystore(victimKey, "Victim-pass-1", { n: 1024 });
    const address = victimKeystore.address;
    const m = await seedMember(t.db);
    const mallory = new Api(t.server.baseUrl, await memberToken(t.db, m.id));
    const ks = victimKeystore as unknown as Record<string, unknown>;
    const attempts = [
      // What main accepted: the keystore alone.
      { backendId: ledger.id, keystore: ks },
      // Signed by Mallory's own key, or by the victim's for somebody else, another backend, or long ago.
      { ...(await provenWallet(victimKey, m.id, ledger.id, { signer: newPrivateKey() })), keystore: ks },
      { ...(await provenWallet(victimKey, m.id + 1n, ledger.id)), keystore: ks },
      { ...(await provenWallet(victimKey, m.id, custodial.id)), backendId: ledger.id, keystore: ks },
      { ...(await provenWallet(victimKey, m.id, ledger.id, { at: new Date(Date.now() - 3_600_000).toISOString() })), keystore: ks },
    ];
    for (const body of attempts) {
      const r = await mallory.call("createUserAccount", { body });
      expect([400, 403], JSON.stringify(r.json)).toContain(r.status);
      expect(r.json.error.code).toMatch(/invalid_signature|signature_expired/);
    }
    expect(await walletRow(address)).toBeUndefined();
    // The key holder opens it as usual.
    const owner = await seedMember(t.db);
    const ownerApi = new Api(t.server.baseUrl, await memberToken(t.db, owner.id));
    const body = await provenWallet(victimKey, owner.id, ledger.id);
    expect((await ownerApi.call("createUserAccount", { body: { ...body, keystore: ks } })).status).toBe(200);
    expect(await walletRow(address)).toMatchObject({ member_id: owner.id, status: "pending" });
  });

  it("a claim left by main's bug, once discarded, frees the address for the key holder's registration or creation", async () => {
    for (const how of ["registerWallet", "createUserAccount"] as const) {
      const key = newPrivateKey();
      const keystore = await encryptKeystore(key, "Victim-pass-1", { n: 1024 });
      const claimant = await seedMember(t.db);
      // The claim as main let it in: another member's pending wallet on the victim's address.
      await openLedgerWallet(t.db, ledger, claimant.id, keystore as unknown as { address: string } & Record<string, unknown>, "pending");
      const owner = await seedMember(t.db);
      const ownerApi = new Api(t.server.baseUrl, await memberToken(t.db, owner.id));
      const refused = await ownerApi.call(how, { body: await provenWallet(key, owner.id, ledger.id) });
      expect(refused.status).toBe(409);
      expect(refused.json.error.message).toBe(SM.walletOfAnotherMember);
      expect((await admin.call("discardCreateRequest", { body: { walletId: `ledger:${keystore.address}` } })).status).toBe(200);
      const r = await ownerApi.call(how, { body: await provenWallet(key, owner.id, ledger.id) });
      expect(r.status, how).toBe(200);
      expect(r.json).toMatchObject({ internalId: `ledger:${keystore.address}`, status: "pending" });
      expect(await walletRow(keystore.address)).toMatchObject({ member_id: owner.id, status: "pending" });
      // It is the owner's request now: approved, it is theirs and nobody else's.
      expect((await admin.call("validateCreation", { body: { walletId: `ledger:${keystore.address}` } })).status).toBe(200);
      const accounts = await ownerApi.call("getAccounts");
      expect(accounts.json.map((a) => a.id)).toContain(`ledger:${keystore.address}`);
    }
  });

  it("answers 404 for an unknown backend and 401 anonymously", async () => {
    expect((await member.call("createUserAccount", { body: { backendId: "custodial:nope" } })).status).toBe(404);
    expect((await new Api(t.server.baseUrl).call("createUserAccount", { body: { backendId: custodial.id } })).status).toBe(401);
  });
});
