import { beforeAll, describe, expect, it } from "vitest";
import { ORIGIN, RP_ID, SoftAuthenticator } from "./soft-authenticator";
import { Api, memberToken, seedMember, type TestServer } from "./helpers";
import { setupServerTest } from "./setup";

const env = { PUBLIC_URL: ORIGIN };
const t = setupServerTest({ server: { env } });
let servers: TestServer[];

beforeAll(async () => {
  servers = [t.server, await t.startServer({ env })];
});

async function member(server = 0) {
  const m = await seedMember(t.db);
  // Signed in by password a moment ago: the session may add passkeys (step-up, credentials.test.ts).
  return { ...m, api: new Api(servers[server]!.baseUrl, await memberToken(t.db, m.id, { fresh: true })) };
}

/** Registers a new authenticator for a member: options on one instance, answer on the other. */
async function enrol(api: Api, other: Api, auth = new SoftAuthenticator()) {
  const opts = await api.call("passkeyRegistrationOptions");
  expect(opts.status).toBe(200);
  const r = await other.call("registerPasskey", { body: { challengeId: opts.json.challengeId, response: auth.register(opts.json.options) } });
  return { auth, status: r.status, json: r.json };
}

async function login(auth: SoftAuthenticator, opts: { origin?: string; verified?: boolean; server?: number } = {}) {
  const anon = new Api(servers[opts.server ?? 0]!.baseUrl);
  const o = await anon.call("passkeyLoginOptions", { body: { credentialId: auth.id } });
  expect(o.status).toBe(200);
  return new Api(servers[1]!.baseUrl).call("passkeyLogin", { body: { challengeId: o.json.challengeId, response: auth.assert(o.json.options, opts) } });
}

describe("passkeys", () => {
  it("registers a platform passkey for the signed-in member and signs them in with it, across instances", async () => {
    const m = await member();
    const other = new Api(servers[1]!.baseUrl, m.api.token);
    const opts = await m.api.call("passkeyRegistrationOptions");
    const o = opts.json.options as { rp: { id: string }; authenticatorSelection: Record<string, string> };
    expect(o.rp.id).toBe(RP_ID);
    expect(o.authenticatorSelection).toMatchObject({ authenticatorAttachment: "platform", residentKey: "required", userVerification: "required" });
    const { auth, status, json } = await enrol(m.api, other);
    expect(status).toBe(200);
    expect(json.credentialId).toBe(auth.id);

    const r = await login(auth);
    expect(r.status).toBe(200);
    expect(r.json.profile).toMatchObject({ id: Number(m.id), email: m.email });
    // The new session works like a password login's.
    expect((await new Api(servers[0]!.baseUrl, r.json.token).call("getMyContact")).status).toBe(200);
  });

  it("refuses a replayed challenge, another origin, a missing fingerprint check and a counter that goes back", async () => {
    const m = await member();
    const { auth } = await enrol(m.api, m.api);
    const anon = new Api(servers[0]!.baseUrl);

    const o = await anon.call("passkeyLoginOptions", { body: { credentialId: auth.id } });
    const answer = auth.assert(o.json.options);
    expect((await anon.call("passkeyLogin", { body: { challengeId: o.json.challengeId, response: answer } })).status).toBe(200);
    const replay = await anon.call("passkeyLogin", { body: { challengeId: o.json.challengeId, response: answer } });
    expect(replay.status).toBe(401);
    expect(replay.json.error.code).toBe("invalid_credentials");

    expect((await login(auth, { origin: "https://evil.example.net" })).status).toBe(401);
    expect((await login(auth, { verified: false })).status).toBe(401);
    auth.counter = 0; // a clone of the authenticator, still at an old count
    expect((await login(auth)).status).toBe(401);
  });

  it("refuses a registration answered with another member's challenge or for another domain", async () => {
    const a = await member();
    const b = await member();
    const opts = await a.api.call("passkeyRegistrationOptions");
    const auth = new SoftAuthenticator();
    const stolen = await b.api.call("registerPasskey", { body: { challengeId: opts.json.challengeId, response: auth.register(opts.json.options) } });
    expect(stolen.status).toBe(400);
    const foreign = await enrol(a.api, a.api, new SoftAuthenticator("evil.example.net"));
    expect(foreign.status).toBe(400);
    expect(foreign.json.error.message).toBe("Unexpected issue occurred while saving your credentials");
  });

  it("a member removes only their own passkey, which then no longer signs anyone in", async () => {
    const a = await member();
    const b = await member();
    const { auth } = await enrol(a.api, a.api);
    expect((await b.api.call("deletePasskey", { params: { credentialId: auth.id } })).status).toBe(404);
    expect((await login(auth)).status).toBe(200);
    expect((await a.api.call("deletePasskey", { params: { credentialId: auth.id } })).status).toBe(200);
    expect((await login(auth)).status).toBe(401);
    expect((await a.api.call("deletePasskey", { params: { credentialId: auth.id } })).status).toBe(404);
  });

  it("a native shell's device login opens a session for its secret only, and is removed like a passkey", async () => {
    const a = await member();
    const b = await member();
    const anon = new Api(servers[1]!.baseUrl);
    const created = await a.api.call("createDeviceLogin");
    expect(created.status).toBe(200);
    const { credentialId, secret } = created.json;
    expect(credentialId).toMatch(/^device:/);
    const ok = await anon.call("deviceLogin", { body: { credentialId, secret } });
    expect(ok.status).toBe(200);
    expect(ok.json.profile.id).toBe(Number(a.id));
    const wrong = await anon.call("deviceLogin", { body: { credentialId, secret: secret.replace(/^./, (c: string) => (c === "A" ? "B" : "A")) } });
    expect(wrong.status).toBe(401);
    expect((await b.api.call("deletePasskey", { params: { credentialId } })).status).toBe(404);
    expect((await a.api.call("deletePasskey", { params: { credentialId } })).status).toBe(200);
    expect((await anon.call("deviceLogin", { body: { credentialId, secret } })).status).toBe(401);
  });
});
