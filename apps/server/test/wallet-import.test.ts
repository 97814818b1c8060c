import { beforeAll, describe, expect, it } from "vitest";
import { M, walletRegistrationMessage, SM } from "@mutua/domain";
import { newPrivateKey, signMessage } from "@mutua/wallet";
import type { BackendRow } from "../src/services/wallets/wallets";
import { Api, createBackend, memberToken, provenWallet, seedMember } from "./helpers";
import { setupServerTest } from "./setup";

/** Importing a wallet file: only a device that opened the file (and signed for this member) can register it. */
const t = setupServerTest();
let ledger: BackendRow;
let admin: Api;

async function member(): Promise<{ api: Api; id: number }> {
  const m = await seedMember(t.db);
  return { api: new Api(t.server.baseUrl, await memberToken(t.db, m.id)), id: Number(m.id) };
}

const importBody = (key: Uint8Array, memberId: number, opts: { password?: string; at?: string; backendId?: string } = {}) =>
  provenWallet(key, memberId, opts.backendId ?? ledger.id, opts);

beforeAll(async () => {
  ledger = await createBackend(t.db, { kind: "ledger" });
  admin = new Api(t.server.baseUrl, await memberToken(t.db, (await seedMember(t.db, { canValidateAccounts: true })).id));
});

describe("importing a wallet file", () => {
  it("registers a new key as a pending wallet, then replaces the stored file of the member's own wallet", async () => {
    const { api, id } = await member();
    const key = newPrivateKey();
    const first = await api.call("registerWallet", { body: await importBody(key, id) });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ status: "pending", replaced: false });
    const walletId = first.json.internalId as string;
    expect((await admin.call("validateCreation", { body: { walletId } })).status).toBe(200);

    // The same key under a new password: the stored copy is replaced, the wallet stays active.
    const again = await importBody(key, id, { password: "New-pass-2" });
    const second = await api.call("registerWallet", { body: again });
    expect(second.json).toMatchObject({ internalId: walletId, status: "active", replaced: true });
    const ks = await api.call("getKeystore", { params: { walletId } });
    expect((ks.json as unknown as { crypto: { ciphertext: string } }).crypto.ciphertext).toBe(
      (again.keystore as { crypto: { ciphertext: string } }).crypto.ciphertext,
    );
  });

  it("refuses a signature by another key, for another member, too old, or a file that is not a wallet", async () => {
    const { api, id } = await member();
    const key = newPrivateKey();
    const forged = await importBody(key, id);
    forged.signature = signMessage(
      newPrivateKey(),
      walletRegistrationMessage({ backendId: ledger.id, address: forged.keystore.address as string, memberId: id, at: forged.at }),
    );
    expect((await api.call("registerWallet", { body: forged })).json.error.code).toBe("invalid_signature");

    // A proof captured from another member's import does not register the wallet to me.
    const { id: otherId } = await member();
    expect((await api.call("registerWallet", { body: await importBody(key, otherId) })).json.error.code).toBe("invalid_signature");

    const old = await importBody(key, id, { at: new Date(Date.now() - 3_600_000).toISOString() });
    expect((await api.call("registerWallet", { body: old })).json.error.code).toBe("signature_expired");

    const notWallet = { ...(await importBody(key, id)), keystore: { hello: "world" } };
    const r = await api.call("registerWallet", { body: notWallet });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toBe(M.notAWalletFile);
    expect((await t.db.query("SELECT 1 FROM wallets WHERE member_id = $1", [id])).rowCount).toBe(0);
  });

  it("refuses another member's wallet and a second wallet on the same backend", async () => {
    const owner = await member();
    const key = newPrivateKey();
    expect((await owner.api.call("registerWallet", { body: await importBody(key, owner.id) })).status).toBe(200);
    const thief = await member();
    const stolen = await thief.api.call("registerWallet", { body: await importBody(key, thief.id) });
    expect(stolen.status).toBe(409);
    expect(stolen.json.error.message).toBe(SM.walletOfAnotherMember);

    const second = await owner.api.call("registerWallet", { body: await importBody(newPrivateKey(), owner.id) });
    expect(second.status).toBe(409);
    expect(second.json.error.message).toBe(M.walletAlreadyCreated);
  });

  it("brings a discarded wallet back as a new request, and answers 404 for unknown or custodial backends", async () => {
    const { api, id } = await member();
    const key = newPrivateKey();
    const walletId = (await api.call("registerWallet", { body: await importBody(key, id) })).json.internalId as string;
    expect((await admin.call("discardCreateRequest", { body: { walletId } })).status).toBe(200);
    expect((await api.call("registerWallet", { body: await importBody(key, id) })).json).toMatchObject({
      internalId: walletId,
      status: "pending",
      replaced: false,
    });

    const custodial = await createBackend(t.db, { kind: "custodial" });
    expect((await api.call("registerWallet", { body: await importBody(newPrivateKey(), id, { backendId: custodial.id }) })).status).toBe(404);
    expect((await api.call("registerWallet", { body: await importBody(newPrivateKey(), id, { backendId: "ledger:nope" }) })).status).toBe(404);
  });
});
