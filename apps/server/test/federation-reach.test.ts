import { randomBytes } from "node:crypto";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SM } from "@mutua/domain";
import { errorBody } from "../src/http/errors";
import { fetchPeerServer } from "../src/services/federation/peer-client";
import { addressAllowed, isPublicAddress, peerNet } from "../src/services/federation/peer-net";
import { Refusal } from "../src/services/platform/errors";
import { readSettings } from "../src/settings";
import { invitationCode, linkRows, linkSides, side, signedCall, strangerKey, TERMS_B, sidesOfThisFile, wire, type Side } from "./federation-sides";
import { freePort } from "./helpers";

/**
 * What anybody's server can make this one store, and what an invitation code can make it reach:
 * acceptances from throwaway keys store nothing and are counted, names from other servers are
 * checked as members' names, and outbound requests go to public addresses only, each unreachable
 * case answered alike. Two associations, each with its own server and database, as in
 * federation-links.test.ts.
 */
const sides = sidesOfThisFile();
let a: Side;
let b: Side;

beforeAll(async () => {
  [a, b] = await Promise.all([side("Association A", "AAA"), side("Association B", "BBB")]);
  sides.push(a, b);
  // Linked, as their owners left them: an address with a Mutua server answers "already linked".
  await linkSides(a, b);
});

afterAll(() => {
  for (const l of listening) l.close();
});

/** TCP servers of the tests, on the loopback: each counts the connections it is given and answers each with `reply` (null: never). */
const listening: net.Server[] = [];
async function listener(reply: string | null, host = "127.0.0.1", port = 0): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.on("error", () => {});
    if (reply !== null) socket.end(reply);
  });
  listening.push(server);
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return { port: (server.address() as net.AddressInfo).port, connections: () => connections };
}
const httpAnswer = (body: string) =>
  `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
const addresses = (...list: string[]) => list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
const secretOf = (code: string) => (JSON.parse(Buffer.from(code.slice("MUTUA-LINK:".length), "base64url").toString()) as { s: string }).s;
const nonces = async (s: Side) => (await s.db.query<{ n: number }>("SELECT count(*)::int AS n FROM federation_nonces")).rows[0]!.n;

describe("acceptances from anybody's server", () => {
  // C: a third association, whose server takes 5 acceptances an hour from one address, and reaches no loopback address.
  let c: Side;
  beforeAll(async () => {
    c = await side("Association C", "CCC", { FEDERATION_ALLOW_LOOPBACK_HTTP: "false", RATE_LIMIT_FEDERATION_ACCEPT_IP_MAX: "5" });
    sides.push(c);
  });

  const throwaway = (secret = randomBytes(24).toString("base64url"), server: Record<string, string> = {}) => {
    const k = strangerKey();
    const named = { protocol: "mutua-federation/1", name: "Throwaway", url: "https://throwaway.example", currencyName: "T", currencySymbol: "T", ...server };
    return signedCall(c, k, "peerAcceptLink", { secret, server: { ...named, publicKey: k.keyId, fingerprint: k.fingerprint }, terms: TERMS_B });
  };

  it("while no invitation waits, 600 acceptances signed by throwaway keys store nothing, and the address is refused with 429 past its budget", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 600; i++) statuses.push((await throwaway()).status);
    expect(statuses.slice(0, 5)).toEqual([409, 409, 409, 409, 409]);
    expect(statuses.slice(5).filter((st) => st !== 429)).toEqual([]);
    expect(await nonces(c)).toBe(0);
    expect(await linkRows(c)).toHaveLength(0);
  });

  it("while an invitation waits, an acceptance whose secret opens none stores no nonce either", async () => {
    await c.db.query("DELETE FROM rate_limits");
    expect((await c.owner.call("createFederationInvitation")).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await throwaway()).status).toBe(409);
    expect(await nonces(c)).toBe(0);
  });

  it("refuses an acceptance naming its association or currency as C would not name its own: 20,000 characters with a direction override, hidden characters", async () => {
    await c.db.query("DELETE FROM rate_limits");
    const { code } = (await c.owner.call("createFederationInvitation")).json;
    const secret = secretOf(code);
    const names: Record<string, string>[] = [
      { name: "\u202E" + "Association ".repeat(2_000) },
      { name: "Association\u200B B" },
      { currencyName: "Gon\u202Eette" },
      { currencySymbol: "G O N" },
    ];
    for (const server of names) {
      const r = await throwaway(secret, server);
      expect(r.status, JSON.stringify(server).slice(0, 40)).toBe(400);
      await c.db.query("DELETE FROM rate_limits");
    }
    expect((await linkRows(c)).map((r) => r.peer_name)).toEqual([null, null]);
    expect(await nonces(c)).toBe(0);
    // Named as members are, spaces of any kind made ordinary: heard, and stored so.
    expect((await throwaway(secret, { name: "Association\u00A0Throwaway " })).status).toBe(200);
    expect((await linkRows(c)).map((r) => r.peer_name)).toEqual([null, "Association Throwaway"]);
  });

  it("without the operator's setting, reaches no loopback address at any port (nothing connects), and refuses plain HTTP at once", async () => {
    const local = await listener(httpAnswer("{}"));
    wire.resolve = async (host) => (host === "localhost" ? addresses("127.0.0.1") : Promise.reject(new Error("ENOTFOUND")));
    const fp = "0".repeat(32);
    for (const u of [`https://127.0.0.1:${local.port}`, `https://localhost:${local.port}`, `https://[::ffff:127.0.0.1]:${local.port}`]) {
      const r = await c.owner.call("acceptFederationInvitation", { body: { code: invitationCode(u, fp, "s".repeat(32)), terms: TERMS_B } });
      expect(r.status, u).toBe(400);
      expect(r.json.error.message).toBe(SM.federationNoServer);
    }
    const plain = await c.owner.call("acceptFederationInvitation", {
      body: { code: invitationCode(`http://127.0.0.1:${local.port}`, fp, "s".repeat(32)), terms: TERMS_B },
    });
    expect(plain.status).toBe(400);
    expect(plain.json.error.message).toBe(SM.federationInsecureUrl);
    expect(local.connections()).toBe(0);
  });
});

describe("what an invitation code can make a server reach", () => {
  const FP = "0".repeat(32);
  const accept = (u: string) => b.owner.call("acceptFederationInvitation", { body: { code: invitationCode(u, FP, "s".repeat(32)), terms: TERMS_B } });

  it("answers alike every address without a Mutua server: refused (private, link-local, metadata, a name resolving to one), unknown, closed, not TLS, something else, not answering", async () => {
    const described = await (await fetch(`${a.url}/.well-known/mutua-federation`)).json();
    const notMutua = await listener(httpAnswer("{}"));
    const wrongKey = await listener(httpAnswer(JSON.stringify({ ...described, fingerprint: FP })));
    const ssh = await listener("SSH-2.0-OpenSSH_9.6\r\n");
    const closed = await freePort();
    const names: Record<string, string[]> = {
      "metadata.test": ["169.254.169.254"],
      "metadata6.test": ["fd00:ec2::254"],
      "intranet.test": ["10.1.2.3"],
      // One address refused is the name refused, even beside one that would be allowed.
      "mixed.test": ["127.0.0.1", "192.168.1.10"],
    };
    wire.resolve = async (host) => (names[host] ? addresses(...names[host]) : Promise.reject(Object.assign(new Error(host), { code: "ENOTFOUND" })));
    const urls = [
      "https://10.0.0.1",
      "https://172.16.5.4",
      "https://192.168.1.1:8443",
      "https://169.254.169.254",
      "https://[fd00:ec2::254]",
      "https://[fe80::1]",
      "https://[fc00::1]",
      "https://[::ffff:10.0.0.1]",
      "https://0.0.0.0",
      "https://[::]",
      "https://100.64.0.1",
      "https://metadata.test",
      "https://metadata6.test",
      "https://intranet.test",
      `http://mixed.test:${notMutua.port}`,
      "https://nowhere.test",
      `http://127.0.0.1:${closed}`,
      `https://127.0.0.1:${new URL(a.url).port}`,
      `http://127.0.0.1:${notMutua.port}`,
      `http://127.0.0.1:${wrongKey.port}`,
      `http://127.0.0.1:${ssh.port}`,
    ];
    const before = await linkRows(b);
    const answers = [];
    for (const u of urls) answers.push({ u, ...(await accept(u)) });
    const first = answers[0]!;
    expect(first.status).toBe(400);
    expect(first.json.error).toEqual({ code: "validation_failed", message: SM.federationNoServer, msgid: SM.federationNoServer });
    expect(answers.map((r) => [r.u, r.status, r.json])).toEqual(answers.map((r) => [r.u, first.status, first.json]));
    // The ones that were allowed were reached; the mixed name was not.
    expect([notMutua.connections(), wrongKey.connections(), ssh.connections()]).toEqual([1, 1, 1]);
    // And a server that keeps the connection open without a word: the same answer once the wait is over.
    const silent = await listener(null);
    const waited = await fetchPeerServer(peerNet(b.server.settings, {}, 100), `http://127.0.0.1:${silent.port}`).catch((e: unknown) => e);
    expect(waited).toBeInstanceOf(Refusal);
    expect(errorBody(waited as Refusal)).toEqual(first.json);
    expect(await linkRows(b)).toEqual(before);
  });

  it("looks a name up once and connects to the address it checked, never to what a second lookup answers (DNS rebinding)", async () => {
    // The name answers A's address once, then another loopback address at the same port, where something else listens.
    const port = Number(new URL(a.url).port);
    const elsewhere = await listener(httpAnswer("{}"), "127.0.0.2", port);
    const asked: string[] = [];
    wire.resolve = async (host) => {
      asked.push(host);
      return addresses(asked.length === 1 ? "127.0.0.1" : "127.0.0.2");
    };
    const { fingerprint } = await (await fetch(`${a.url}/.well-known/mutua-federation`)).json();
    const r = await b.owner.call("acceptFederationInvitation", {
      body: { code: invitationCode(`http://rebind.test:${port}`, fingerprint, "s".repeat(32)), terms: TERMS_B },
    });
    // A's server answered (B is linked with it already): the address checked is the one connected to.
    expect(r.status).toBe(409);
    expect(r.json.error.message).toBe(SM.federationAlreadyLinked);
    expect(asked).toEqual(["rebind.test"]);
    expect(elsewhere.connections()).toBe(0);
  });

  it("passes public addresses only, besides those the operator names (at their port if one is named) and, with its setting, the loopback", () => {
    for (const ip of [
      "10.0.0.1",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.0.1",
      "127.0.0.1",
      "127.8.9.10",
      "169.254.169.254",
      "169.254.0.1",
      "0.0.0.0",
      "100.64.0.1",
    ])
      expect(isPublicAddress(ip), ip).toBe(false);
    for (const ip of ["::1", "::", "fe80::1", "febf::1", "fc00::1", "fdff::1", "fd00:ec2::254", "::ffff:10.0.0.1", "::ffff:127.0.0.1", "::7f00:1", "ff02::1"])
      expect(isPublicAddress(ip), ip).toBe(false);
    for (const ip of ["8.8.8.8", "1.1.1.1", "172.32.0.1", "2001:4860:4860::8888", "::ffff:8.8.8.8"]) expect(isPublicAddress(ip), ip).toBe(true);

    const operator = readSettings({ FEDERATION_ALLOW_HOSTS: "10.1.2.0/24, peer.internal:8443, [fd12::1]" }).federation;
    const at = (u: string, address: string) => addressAllowed(operator, new URL(u), new URL(u).hostname.replace(/^\[(.*)\]$/, "$1"), address);
    expect(at("https://b.example", "10.1.2.7")).toBe(true);
    expect(at("https://b.example", "10.1.3.7")).toBe(false);
    expect(at("https://peer.internal:8443", "10.9.9.9")).toBe(true);
    expect(at("https://peer.internal", "10.9.9.9")).toBe(false);
    expect(at("https://[fd12::1]", "fd12::1")).toBe(true);
    expect(at("https://b.example", "169.254.169.254")).toBe(false);
    // Plain HTTP and the loopback: only with FEDERATION_ALLOW_LOOPBACK_HTTP, and plain HTTP to nothing else.
    expect(at("https://127.0.0.1", "127.0.0.1")).toBe(false);
    expect(at("http://b.example", "10.1.2.7")).toBe(false);
    const loopback = { ...operator, allowLoopbackHttp: true };
    expect(addressAllowed(loopback, new URL("http://localhost:8080"), "localhost", "127.0.0.1")).toBe(true);
    expect(addressAllowed(loopback, new URL("http://b.example"), "b.example", "10.1.2.7")).toBe(false);
    expect(() => readSettings({ FEDERATION_ALLOW_HOSTS: "10.0.0.0/33" })).toThrow(/FEDERATION_ALLOW_HOSTS/);
  });
});
