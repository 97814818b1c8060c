import { beforeAll, describe, expect, it } from "vitest";
import { InvalidCredentialsError, RefusedError } from "@mutua/client";
import { buildPath, renderMsg, SM } from "@mutua/domain";
import { newPinProof, pinProof } from "@mutua/wallet";
import { SLOWDOWN_STEP_MS, slowdown } from "../src/services/platform/rate-limit";
import type { Mailer } from "../src/services/platform/mail";
import {
  countMembers,
  createBackend,
  fetchFrom,
  http,
  memberToken,
  openTestLedgerWallet,
  seedMember,
  Session,
  startServer,
  uniqueEmail,
  type ErrorJson,
  type SeededMember,
  type TestServer,
} from "./helpers";
import { setupServerTest } from "./setup";

/**
 * Small budgets so a test can exhaust them, in windows of a minute: long enough that no run, however
 * slow, sees a window roll over mid-test. A test that needs a window to be over does not wait for
 * it: it moves the stored window starts back (windowsPass). TRUST_PROXY lets each test speak from its own
 * X-Forwarded-For address, so per-IP and per-account budgets stay apart.
 */
const ENV = {
  TRUST_PROXY: "1",
  RATE_LIMIT_LOGIN_ACCOUNT_MAX: "3",
  RATE_LIMIT_LOGIN_ACCOUNT_WINDOW: "60",
  RATE_LIMIT_LOGIN_IP_MAX: "4",
  RATE_LIMIT_LOGIN_IP_WINDOW: "60",
  RATE_LIMIT_SIGNUP_ACCOUNT_MAX: "2",
  RATE_LIMIT_SIGNUP_ACCOUNT_WINDOW: "60",
  RATE_LIMIT_SIGNUP_IP_MAX: "3",
  RATE_LIMIT_SIGNUP_IP_WINDOW: "60",
  RATE_LIMIT_RESET_ACCOUNT_MAX: "2",
  RATE_LIMIT_RESET_ACCOUNT_WINDOW: "60",
  RATE_LIMIT_RESET_IP_MAX: "3",
  RATE_LIMIT_RESET_IP_WINDOW: "60",
  RATE_LIMIT_PASSKEY_OPTIONS_IP_MAX: "3",
  RATE_LIMIT_PASSKEY_OPTIONS_IP_WINDOW: "60",
};

const WRONG = "Wrong1234!";
const SIGNUP = { firstName: "Rate", lastName: "Limit", password: "Signup123!" };

const t = setupServerTest({ server: { env: ENV } });
let server: TestServer;
let twin: TestServer;
let ipSeq = 0;
/** A client address of its own per call (TEST-NET-3, never routed). */
const newIp = () => `203.0.113.${++ipSeq}`;

beforeAll(async () => {
  server = t.server;
  twin = await t.startServer({ env: ENV });
});

/**
 * What `seconds` passing does to the limiter: every counter's window started that much earlier
 * (the counters live in rate_limits; tests in this file run one at a time).
 */
const windowsPass = (seconds: number) => t.db.query("UPDATE rate_limits SET window_start = window_start - make_interval(secs => $1)", [seconds]);

/** A member whose hash is cheap to check: many attempts, little CPU. */
const fastMember = () => seedMember(t.db, { hashCost: 10 });

function login(s: TestServer, ip: string, email: string, password: string) {
  return http<ErrorJson>(s.baseUrl, "POST", buildPath("login"), { body: { login: email, password }, headers: { "x-forwarded-for": ip } });
}

/** Checks a 429 answer: code, message, and a Retry-After header that agrees with the body. */
function expectRateLimited(r: Awaited<ReturnType<typeof login>>, maxWindow: number): number {
  expect(r.status).toBe(429);
  expect(r.json.error.code).toBe("rate_limited");
  expect(r.json.error.msgid).toBe(SM.rateLimited);
  expect(r.json.error.message).toBe(renderMsg({ id: SM.rateLimited, values: { minutes: Math.max(1, Math.ceil(maxWindow / 60)) } }));
  expect(r.json.error.message).toMatch(/^Too many attempts\. Please wait \d+ minutes? and try again\.$/);
  const header = r.headers.get("retry-after");
  expect(header).toMatch(/^\d+$/);
  const retry = Number(header);
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(retry).toBeLessThanOrEqual(maxWindow);
  expect(r.json.error.retryAfter).toBe(retry);
  return retry;
}

describe("login, per account", () => {
  it("blocks after the budget of wrong passwords, even the right one, then lets in after the window", async () => {
    const m = await fastMember();
    // A fresh address per attempt: only the account's budget is at play.
    for (let i = 0; i < 3; i++) expect((await login(server, newIp(), m.email, WRONG)).status).toBe(401);
    expectRateLimited(await login(server, newIp(), m.email, WRONG), 60);
    const blocked = await login(server, newIp(), m.email, m.password);
    const retry = expectRateLimited(blocked, 60);

    // Through the typed client, the refusal is a RefusedError carrying the code, not "invalid credentials".
    const s = new Session(server.baseUrl, { fetch: fetchFrom(newIp()) });
    const err = await s.login(m.email, m.password).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RefusedError);
    expect((err as RefusedError).status).toBe(429);
    expect((err as RefusedError).code).toBe("rate_limited");

    await windowsPass(retry); // as long as Retry-After said
    const ok = await login(server, newIp(), m.email, m.password);
    expect(ok.status).toBe(200);
  });

  it("counts differently typed forms of one address against the same budget", async () => {
    const m = await fastMember();
    for (const typed of [m.email, m.email.toUpperCase(), `  ${m.email} `]) expect((await login(server, newIp(), typed, WRONG)).status).toBe(401);
    expectRateLimited(await login(server, newIp(), ` ${m.email.toUpperCase()}`, m.password), 60);
  });

  it("a successful login clears the account's count of failures", async () => {
    const m = await fastMember();
    for (let i = 0; i < 2; i++) expect((await login(server, newIp(), m.email, WRONG)).status).toBe(401);
    expect((await login(server, newIp(), m.email, m.password)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await login(server, newIp(), m.email, WRONG)).status).toBe(401);
    expectRateLimited(await login(server, newIp(), m.email, WRONG), 60);
  });

  it("does not block other accounts", async () => {
    const [a, b] = [await fastMember(), await fastMember()];
    for (let i = 0; i < 3; i++) await login(server, newIp(), a.email, WRONG);
    expectRateLimited(await login(server, newIp(), a.email, a.password), 60);
    expect((await login(server, newIp(), b.email, b.password)).status).toBe(200);
  });
});

describe("login, per IP", () => {
  it("blocks an address guessing across many accounts, not the others, until the window ends", async () => {
    const members: SeededMember[] = [];
    for (let i = 0; i < 5; i++) members.push(await fastMember());
    const ip = newIp();
    for (let i = 0; i < 4; i++) expect((await login(server, ip, members[i]!.email, WRONG)).status).toBe(401);
    const retry = expectRateLimited(await login(server, ip, members[4]!.email, members[4]!.password), 60);
    // The account itself is fine: from elsewhere it logs in.
    expect((await login(server, newIp(), members[4]!.email, members[4]!.password)).status).toBe(200);

    await windowsPass(retry); // as long as Retry-After said
    expect((await login(server, ip, members[4]!.email, members[4]!.password)).status).toBe(200);
  });

  it("through the typed client: InvalidCredentialsError until blocked, then RefusedError", async () => {
    const members: SeededMember[] = [];
    for (let i = 0; i < 6; i++) members.push(await fastMember());
    const m = members.pop()!;
    const s = new Session(server.baseUrl, { fetch: fetchFrom(newIp()) });
    const errors: unknown[] = [];
    // Known members with cheap hashes, not unknown addresses: those cost a full dummy hash each.
    for (const other of members) errors.push(await s.login(other.email, WRONG).catch((e: unknown) => e));
    expect(errors.slice(0, 4).every((e) => e instanceof InvalidCredentialsError)).toBe(true);
    expect(errors[4]).toBeInstanceOf(RefusedError);
    await expect(s.login(m.email, m.password)).rejects.toBeInstanceOf(RefusedError);
  });
});

describe("signup limits", () => {
  it("per account: attempts on one address are counted whether they succeed or not", async () => {
    const email = uniqueEmail("signup");
    const signup = (ip: string) =>
      http<ErrorJson>(server.baseUrl, "POST", buildPath("signup"), { body: { ...SIGNUP, email }, headers: { "x-forwarded-for": ip } });
    expect((await signup(newIp())).status).toBe(200);
    expect((await signup(newIp())).status).toBe(409);
    expectRateLimited(await signup(newIp()), 60);
  });

  it("per IP: of simultaneous sign-ups beyond the budget, exactly the excess is refused and not written", async () => {
    const ip = newIp();
    const before = await countMembers(t.db);
    // Sent together: the counter is updated atomically, so concurrency cannot buy extra attempts.
    const results = await Promise.all(
      [0, 1, 2, 3, 4].map(() =>
        http<ErrorJson>(server.baseUrl, "POST", buildPath("signup"), { body: { ...SIGNUP, email: uniqueEmail("burst") }, headers: { "x-forwarded-for": ip } }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    for (const r of results.filter((x) => x.status === 429)) expectRateLimited(r, 60);
    expect(await countMembers(t.db)).toBe(before + 3);
  });

  it("validation failures do not spend the budget", async () => {
    const ip = newIp();
    for (let i = 0; i < 5; i++) {
      const r = await http(server.baseUrl, "POST", buildPath("signup"), { body: { ...SIGNUP, email: "not-an-email" }, headers: { "x-forwarded-for": ip } });
      expect(r.status).toBe(400);
    }
    const r = await http(server.baseUrl, "POST", buildPath("signup"), { body: { ...SIGNUP, email: uniqueEmail("after") }, headers: { "x-forwarded-for": ip } });
    expect(r.status).toBe(200);
  });
});

describe("reset limits", () => {
  const reset = (email: string, ip: string) =>
    http<ErrorJson>(server.baseUrl, "POST", buildPath("resetPassword"), { body: { email }, headers: { "x-forwarded-for": ip } });

  it("per account: a member cannot be flooded with reset mails", async () => {
    const m = await seedMember(t.db);
    expect((await reset(m.email, newIp())).status).toBe(200);
    expect((await reset(m.email.toUpperCase(), newIp())).status).toBe(200);
    expectRateLimited(await reset(m.email, newIp()), 60);
  });

  it("per IP: probing addresses spends the budget, then even a member's reset is refused", async () => {
    const m = await seedMember(t.db);
    const ip = newIp();
    for (let i = 0; i < 3; i++) expect((await reset(uniqueEmail("probe"), ip)).status).toBe(404);
    expectRateLimited(await reset(m.email, ip), 60);
    expect((await reset(m.email, newIp())).status).toBe(200);
  });
});

describe("shared counters", () => {
  it("two server instances on one database spend one budget", async () => {
    const m = await fastMember();
    expect((await login(server, newIp(), m.email, WRONG)).status).toBe(401);
    expect((await login(twin, newIp(), m.email, WRONG)).status).toBe(401);
    expect((await login(server, newIp(), m.email, WRONG)).status).toBe(401);
    // Either instance alone has seen at most two attempts; only a shared counter refuses now.
    expectRateLimited(await login(twin, newIp(), m.email, m.password), 60);
    expectRateLimited(await login(server, newIp(), m.email, m.password), 60);

    const { rows } = await t.db.query<{ hits: number }>("SELECT hits FROM rate_limits WHERE bucket = $1", [`login:account:${m.email}`]);
    expect(rows).toEqual([{ hits: 5 }]);
  });

  it("simultaneous wrong guesses on two instances cannot exceed the budget", async () => {
    const m = await fastMember();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => login(i % 2 ? twin : server, newIp(), m.email, WRONG)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });
});

describe("slowing down before refusing", () => {
  it("answers attempts past half the budget later and later, and refusals at once", async () => {
    expect([1, 2, 3, 4, 5, 6, 10, 30].map((h) => slowdown(h, 10))).toEqual([0, 0, 0, 0, 0, 250, 1250, 2000]);
    const m = await fastMember();
    const timed = async () => {
      const t = Date.now();
      const r = await login(server, newIp(), m.email, WRONG);
      return { status: r.status, ms: Date.now() - t };
    };
    const [first, second, third, refused] = [await timed(), await timed(), await timed(), await timed()];
    expect([first.status, second.status, third.status, refused.status]).toEqual([401, 401, 401, 429]);
    // A budget of 3: the third attempt is past half of it and waits first.
    expect(third.ms).toBeGreaterThanOrEqual(SLOWDOWN_STEP_MS);
    expect(third.ms).toBeGreaterThan(first.ms);
  });
});

describe("after the window, every limit lets in again", () => {
  /**
   * Windows of a minute, which no slow run sees roll over mid-test; the tests end them by moving
   * their starts back (windowsPass). Cheap password hashes keep the sign-ups quick.
   */
  const SHORT = {
    TRUST_PROXY: "1",
    PASSWORD_HASH_COST: "10",
    RATE_LIMIT_SIGNUP_ACCOUNT_MAX: "1",
    RATE_LIMIT_SIGNUP_ACCOUNT_WINDOW: "60",
    RATE_LIMIT_SIGNUP_IP_MAX: "2",
    RATE_LIMIT_SIGNUP_IP_WINDOW: "60",
    RATE_LIMIT_RESET_ACCOUNT_MAX: "1",
    RATE_LIMIT_RESET_ACCOUNT_WINDOW: "60",
    RATE_LIMIT_RESET_IP_MAX: "2",
    RATE_LIMIT_RESET_IP_WINDOW: "60",
    RATE_LIMIT_PIN_MEMBER_MAX: "2",
    RATE_LIMIT_PIN_MEMBER_WINDOW: "60",
    RATE_LIMIT_PIN_IP_MAX: "3",
    RATE_LIMIT_PIN_IP_WINDOW: "60",
  };
  let short: TestServer;
  beforeAll(async () => {
    short = await t.startServer({ env: SHORT });
  });
  const post = (path: string, body: unknown, ip: string, token?: string) =>
    http<ErrorJson & { deviceSecret?: string }>(short.baseUrl, "POST", path, { body, headers: { "x-forwarded-for": ip }, ...(token ? { token } : {}) });

  it("sign-up: per account and per IP", async () => {
    const email = uniqueEmail("again");
    const ip = newIp();
    expect((await post(buildPath("signup"), { ...SIGNUP, email }, ip)).status).toBe(200);
    const retry = expectRateLimited(await post(buildPath("signup"), { ...SIGNUP, email: email.toUpperCase() }, newIp()), 60);
    expect((await post(buildPath("signup"), { ...SIGNUP, email: uniqueEmail("again") }, ip)).status).toBe(200);
    expectRateLimited(await post(buildPath("signup"), { ...SIGNUP, email: uniqueEmail("again") }, ip), 60);
    await windowsPass(retry); // as long as Retry-After said
    expect((await post(buildPath("signup"), { ...SIGNUP, email }, newIp())).status).toBe(409); // counted again, and answered
    expect((await post(buildPath("signup"), { ...SIGNUP, email: uniqueEmail("again") }, ip)).status).toBe(200);
  });

  it("password reset: per account and per IP", async () => {
    const m = await seedMember(t.db);
    const ip = newIp();
    expect((await post(buildPath("resetPassword"), { email: m.email }, ip)).status).toBe(200);
    const retry = expectRateLimited(await post(buildPath("resetPassword"), { email: m.email }, newIp()), 60);
    expect((await post(buildPath("resetPassword"), { email: uniqueEmail("probe") }, ip)).status).toBe(404);
    expectRateLimited(await post(buildPath("resetPassword"), { email: uniqueEmail("probe") }, ip), 60);
    await windowsPass(retry); // as long as Retry-After said
    expect((await post(buildPath("resetPassword"), { email: m.email }, ip)).status).toBe(200);
  });

  it("PIN proofs: per member and per IP, and the right PIN works once the window is over", async () => {
    const ledger = await createBackend(t.db, { kind: "ledger" });
    const pinOf = async (pin: string) => {
      const m = await seedMember(t.db);
      const token = await memberToken(t.db, m.id);
      const wallet = await openTestLedgerWallet(t.db, ledger, m.id);
      const { proofSalt, verifier } = await newPinProof(pin);
      const created = await http<{ pinId: string; deviceSecret: string }>(short.baseUrl, "POST", buildPath("createPin"), {
        body: { walletId: wallet.id, verifier },
        token,
      });
      const open = async (tried: string, ip: string) =>
        post(buildPath("openPin", { pinId: created.json.pinId }), { proof: await pinProof(tried, proofSalt) }, ip, token);
      return { open, deviceSecret: created.json.deviceSecret };
    };
    const alice = await pinOf("2468");
    const ip = newIp();
    expect((await alice.open("1111", ip)).status).toBe(403);
    expect((await alice.open("2222", ip)).status).toBe(403);
    const retry = expectRateLimited(await alice.open("2468", newIp()), 60);

    // Per IP: another member's proofs from that address are refused once it has spent its budget.
    const bob = await pinOf("1357");
    expect((await bob.open("1357", ip)).status).toBe(200);
    expectRateLimited(await bob.open("1357", ip), 60);
    expect((await bob.open("1357", newIp())).json.deviceSecret).toBe(bob.deviceSecret);

    await windowsPass(retry); // as long as Retry-After said
    // The refusals did not count as wrong PINs: the right one still opens the wallet.
    const right = await alice.open("2468", ip);
    expect(right.status).toBe(200);
    expect(right.json.deviceSecret).toBe(alice.deviceSecret);
  });
});

describe("anonymous passkey login options", () => {
  it("are limited per client address, so nobody can fill the challenge table", async () => {
    const ip = newIp();
    const challenges = async () => (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM webauthn_challenges")).rows[0]!.n;
    const before = await challenges();
    const answers = [];
    for (let i = 0; i < 6; i++) {
      answers.push((await http<ErrorJson>(server.baseUrl, "POST", buildPath("passkeyLoginOptions"), { body: {}, headers: { "x-forwarded-for": ip } })).status);
    }
    expect(answers).toEqual([200, 200, 200, 429, 429, 429]);
    expect(await challenges()).toBe(before + 3);
    // Another address is not held back.
    expect((await http(server.baseUrl, "POST", buildPath("passkeyLoginOptions"), { body: {}, headers: { "x-forwarded-for": newIp() } })).status).toBe(200);
  });
});

describe("expired rows", () => {
  it("old rate-limit windows and expired challenges are swept by a running server", async () => {
    await t.db.query(
      "INSERT INTO rate_limits (bucket, window_start, hits) VALUES ('login:ip:old', now() - interval '2 days', 7), ('login:ip:current', now(), 1)",
    );
    await t.db.query("INSERT INTO webauthn_challenges (purpose, challenge, expires_at) VALUES ('login', 'old', now() - interval '1 minute')");
    const fresh = await startServer(t.db, { env: ENV });
    try {
      // The sweep runs when the server starts: wait for its effect, not for a time.
      for (const end = Date.now() + 10_000; ;) {
        const { rows } = await t.db.query("SELECT bucket FROM rate_limits WHERE bucket IN ('login:ip:old', 'login:ip:current')");
        const left = await t.db.query("SELECT 1 FROM webauthn_challenges WHERE challenge = 'old'");
        if (rows.length === 1 && left.rowCount === 0) {
          expect(rows).toEqual([{ bucket: "login:ip:current" }]);
          break;
        }
        if (Date.now() > end) throw new Error(`not swept: ${JSON.stringify(rows)}, ${left.rowCount} challenge(s)`);
        await new Promise((r) => setImmediate(r));
      }
    } finally {
      await fresh.close();
    }
  });
});

describe("account enumeration by time", () => {
  it("a reset answers a member's address without waiting for the mail server, as fast as an unknown one", async () => {
    // A mail server that never answers: an answer that waited for it would never come for a member.
    const stuck: Mailer = { send: () => new Promise<void>(() => {}) };
    const slow = await startServer(t.db, { env: ENV, mailer: stuck });
    try {
      const m = await fastMember();
      const reset = (email: string) =>
        fetch(`${slow.baseUrl}${buildPath("resetPassword")}`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": newIp() },
          body: JSON.stringify({ email }),
          signal: AbortSignal.timeout(5_000),
        });
      expect((await reset(m.email)).status).toBe(200);
      expect((await reset(uniqueEmail("nobody"))).status).toBe(404);
    } finally {
      await slow.close();
    }
  });
});
