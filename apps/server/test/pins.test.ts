import { beforeAll, describe, expect, it } from "vitest";
import { M } from "@mutua/domain";
import { newPinProof, newPrivateKey, openWithPin, pinProof, sealWithPin } from "@mutua/wallet";
import type { BackendRow } from "../src/services/wallets/wallets";
import { Api, createBackend, memberToken, provenWallet, seedMember, type TestServer } from "./helpers";
import { setupServerTest } from "./setup";

/** PINs: the server holds each device secret and counts wrong PINs, on every instance. */
const t = setupServerTest();
let servers: TestServer[];
let ledger: BackendRow;

async function memberWithWallet(serverIndex = 0): Promise<{ api: Api; walletId: string; token: string }> {
  const m = await seedMember(t.db);
  const token = await memberToken(t.db, m.id);
  const api = new Api(servers[serverIndex]!.baseUrl, token);
  const r = await api.call("createUserAccount", { body: await provenWallet(newPrivateKey(), m.id, ledger.id) });
  return { api, walletId: r.json.internalId as string, token };
}

beforeAll(async () => {
  servers = [t.server, await t.startServer()];
  ledger = await createBackend(t.db, { kind: "ledger" });
});

describe("PINs", () => {
  it("releases the device secret for the right PIN only, and the device opens its record with it", async () => {
    const { api, walletId } = await memberWithWallet();
    const { proofSalt, verifier } = await newPinProof("2468");
    const created = await api.call("createPin", { body: { walletId, verifier } });
    expect(created.status).toBe(200);
    const { pinId, deviceSecret } = created.json;
    const record = await sealWithPin("Wallet-pass-1", "2468", deviceSecret, { pinId, proofSalt });

    const wrong = await api.call("openPin", { params: { pinId }, body: { proof: await pinProof("1357", proofSalt) } });
    expect(wrong.status).toBe(403);
    expect(wrong.json.error).toMatchObject({ code: "wrong_pin", message: M.authFailed, values: { attemptsLeft: 4 } });
    const right = await api.call("openPin", { params: { pinId }, body: { proof: await pinProof("2468", proofSalt) } });
    expect(right.json.deviceSecret).toBe(deviceSecret);
    expect(await openWithPin(record, "2468", right.json.deviceSecret)).toBe("Wallet-pass-1");
    // The secret is stored as given out, the PIN and its proof are not.
    const row = await t.db.query<{ verifier: Buffer }>("SELECT verifier FROM pins WHERE id = $1", [pinId]);
    expect(row.rows[0]!.verifier.toString("hex")).not.toBe(verifier);
  });

  it("disables a PIN after 5 wrong ones, counted across server instances even in parallel", async () => {
    const { walletId, token } = await memberWithWallet();
    const a = new Api(servers[0]!.baseUrl, token);
    const b = new Api(servers[1]!.baseUrl, token);
    const { proofSalt, verifier } = await newPinProof("1111");
    const { pinId } = (await a.call("createPin", { body: { walletId, verifier } })).json;
    const bad = await pinProof("9999", proofSalt);
    // A right PIN in between resets the count.
    for (let i = 0; i < 4; i++) expect((await a.call("openPin", { params: { pinId }, body: { proof: bad } })).status).toBe(403);
    expect((await b.call("openPin", { params: { pinId }, body: { proof: await pinProof("1111", proofSalt) } })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).call("openPin", { params: { pinId }, body: { proof: bad } })));
    const codes = answers.map((r) => r.json.error.code).sort();
    expect(codes.filter((c) => c === "wrong_pin")).toHaveLength(4);
    expect(codes.filter((c) => c === "pin_disabled")).toHaveLength(4);
    // Gone for good: even the right PIN no longer opens it.
    const after = await a.call("openPin", { params: { pinId }, body: { proof: await pinProof("1111", proofSalt) } });
    expect(after.status).toBe(410);
    expect(after.json.error.message).toBe(M.pinDisabled);
  });

  it("keeps each member to their own wallets and PINs", async () => {
    const alice = await memberWithWallet();
    const bob = await memberWithWallet();
    const { proofSalt, verifier } = await newPinProof("1234");
    expect((await bob.api.call("createPin", { body: { walletId: alice.walletId, verifier } })).status).toBe(404);
    const { pinId } = (await alice.api.call("createPin", { body: { walletId: alice.walletId, verifier } })).json;
    const proof = await pinProof("1234", proofSalt);
    // Bob, even knowing the PIN, gets nothing and spends none of Alice's attempts.
    expect((await bob.api.call("openPin", { params: { pinId }, body: { proof } })).status).toBe(410);
    expect((await bob.api.call("deletePin", { params: { pinId } })).status).toBe(404);
    expect((await alice.api.call("openPin", { params: { pinId }, body: { proof } })).status).toBe(200);
    expect((await new Api(servers[0]!.baseUrl).call("openPin", { params: { pinId }, body: { proof } })).status).toBe(401);
    expect((await alice.api.call("deletePin", { params: { pinId } })).status).toBe(200);
    expect((await alice.api.call("openPin", { params: { pinId }, body: { proof } })).status).toBe(410);
  });

  it("limits PIN attempts per member", async () => {
    const s = await t.startServer({ env: { RATE_LIMIT_PIN_MEMBER_MAX: "3" } });
    const { walletId, token } = await memberWithWallet();
    const api = new Api(s.baseUrl, token);
    const { proofSalt, verifier } = await newPinProof("1234");
    const { pinId } = (await api.call("createPin", { body: { walletId, verifier } })).json;
    const proof = await pinProof("1234", proofSalt);
    for (let i = 0; i < 3; i++) expect((await api.call("openPin", { params: { pinId }, body: { proof } })).status).toBe(200);
    expect((await api.call("openPin", { params: { pinId }, body: { proof } })).status).toBe(429);
  });
});
