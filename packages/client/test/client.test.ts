import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildPath, type ErrorBody } from "@mutua/domain";
import {
  ClientError,
  InvalidCredentialsError,
  LoginRequiredError,
  MutuaClient,
  REQUEST_TIMEOUT_MS,
  RefusedError,
  RequestFailedError,
  UnexpectedError,
} from "../src";

/**
 * A real HTTP server whose answers each test scripts, to prove how the client maps what comes
 * back over the wire to its typed errors.
 */
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Respond = (req: Seen, res: http.ServerResponse) => void;

let server: http.Server;
let base: string;
let respond: Respond;
let seen: Seen[] = [];

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Respond =>
  (_req, res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };

const errorBody = (e: ErrorBody["error"]): ErrorBody => ({ error: e });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const s: Seen = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      seen.push(s);
      respond(s, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

beforeEach(() => {
  seen = [];
  respond = json(200, { ok: true });
});

function client(extra: Partial<ConstructorParameters<typeof MutuaClient>[0]> = {}) {
  const state = { loginRequired: 0, token: null as string | null };
  const c = new MutuaClient({
    baseUrl: base,
    getToken: () => state.token,
    onLoginRequired: () => {
      state.loginRequired++;
    },
    ...extra,
  });
  return { c, state };
}

async function failure(p: Promise<unknown>): Promise<ClientError> {
  const e = await p.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ClientError);
  return e as ClientError;
}

describe("requests", () => {
  it("sends the contract's method and path, the token as Bearer, and JSON bodies", async () => {
    const { c, state } = client();
    respond = json(200, { id: 1, name: "A B", firstName: "A", lastName: "B", email: "a@b.c" });
    state.token = "tok-123";
    expect(await c.call("getMyContact")).toEqual({ id: 1, name: "A B", firstName: "A", lastName: "B", email: "a@b.c" });
    expect(seen[0]).toMatchObject({ method: "GET", url: buildPath("getMyContact"), body: "" });
    expect(seen[0]!.headers.authorization).toBe("Bearer tok-123");
    expect(seen[0]!.headers.accept).toBe("application/json");

    respond = json(200, { ok: true });
    await c.call("setNewPassword", { body: { token: "t", password: "Secret123!" } });
    expect(seen[1]).toMatchObject({ method: "POST", url: buildPath("setNewPassword") });
    expect(seen[1]!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(seen[1]!.body)).toEqual({ token: "t", password: "Secret123!" });
  });

  it("sends no Authorization header without a token", async () => {
    const { c } = client();
    await c.call("logout");
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });

  it("sends bodies as given: the server normalises e-mails and names (apps/server/test/signup.test.ts, reset.test.ts)", async () => {
    const { c } = client();
    respond = json(200, { token: "t", expiresAt: new Date().toISOString(), profile: { id: 1, name: "", firstName: "", lastName: "", email: "" } });
    await c.call("login", { body: { login: "  Alice.Martin@Example.COM \t", password: "  Pass Word1! " } });
    expect(seen[0]!.url).toBe(buildPath("login"));
    expect(JSON.parse(seen[0]!.body)).toEqual({ login: "  Alice.Martin@Example.COM \t", password: "  Pass Word1! " });

    respond = json(200, { ok: true });
    await c.call("signup", { body: { email: " Zoe@Example.ORG ", firstName: " Zoé ", lastName: " D ", password: " p " } });
    expect(JSON.parse(seen[1]!.body)).toEqual({ email: " Zoe@Example.ORG ", firstName: " Zoé ", lastName: " D ", password: " p " });
  });

  it("fills the path's parameters and the query string", async () => {
    const { c } = client();
    respond = json(200, { items: [], next: null });
    await c.call("getTransactions", { params: { walletId: "ledger:0xAB/c" }, query: { limit: 5, cursor: undefined } });
    expect(seen[0]!.url).toBe(`${buildPath("getTransactions", { walletId: "ledger:0xAB/c" })}?limit=5`);
    // The contract's types ask for what a path needs; a caller that slips past them is refused before any request.
    // @ts-expect-error: getBalance's path has a parameter
    await expect(c.call("getBalance")).rejects.toThrow("getBalance: path parameter walletId missing");
    expect(seen).toHaveLength(1);
    // Checked by the compiler only (never run): a body the operation takes, a query field without a default.
    const unchecked = () => {
      // @ts-expect-error: transfer takes a body
      void c.call("transfer");
      // @ts-expect-error: getAccountSummary's query needs `tz`
      void c.call("getAccountSummary", { params: { walletId: "w" } });
    };
    expect(unchecked).toBeTypeOf("function");
  });

  it("keeps a path prefix of the base URL and ignores trailing slashes", async () => {
    const c = new MutuaClient({ baseUrl: `${base}/mutua///` });
    expect(c.baseUrl).toBe(`${base}/mutua`);
    await c.call("health");
    expect(seen[0]!.url).toBe(`/mutua${buildPath("health")}`);
  });
});

describe("error mapping", () => {
  it("a closed port is RequestFailedError", async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const c = new MutuaClient({ baseUrl: `http://127.0.0.1:${port}` });
    const e = await failure(c.call("getMyContact"));
    expect(e).toBeInstanceOf(RequestFailedError);
    expect(e.kind).toBe("request-failed");
    expect(e.message).toContain(`GET ${buildPath("getMyContact")}`);
  });

  it.each([502, 503, 504])("a gateway's %i is RequestFailedError, even on login", async (status) => {
    respond = (_req, res) => {
      res.writeHead(status, { "content-type": "text/html" });
      res.end("<h1>Bad gateway</h1>");
    };
    const { c, state } = client();
    expect(await failure(c.call("getMyContact"))).toBeInstanceOf(RequestFailedError);
    expect(await failure(c.call("login", { body: { login: "a@b.c", password: "x" } }))).toBeInstanceOf(RequestFailedError);
    expect(state.loginRequired).toBe(0);
  });

  it("a server that never answers is RequestFailedError after timeoutMs", async () => {
    respond = () => {
      /* never answers */
    };
    const { c } = client({ timeoutMs: 200 });
    const t0 = Date.now();
    const e = await failure(c.call("getBackends"));
    const took = Date.now() - t0;
    expect(e).toBeInstanceOf(RequestFailedError);
    expect(took).toBeGreaterThanOrEqual(190);
    expect(took).toBeLessThan(3_000);
    expect(seen).toHaveLength(1);
  });

  it("waits 20 seconds by default, as the spec says", () => {
    expect(REQUEST_TIMEOUT_MS).toBe(20_000);
  });

  it("401 on login is InvalidCredentialsError with the server's message, and no login-required callback", async () => {
    respond = json(401, errorBody({ code: "invalid_credentials", message: "Invalid credentials", msgid: "Invalid credentials" }));
    const { c, state } = client();
    const e = await failure(c.call("login", { body: { login: "a@b.c", password: "wrong" } }));
    expect(e).toBeInstanceOf(InvalidCredentialsError);
    expect(e.kind).toBe("invalid-credentials");
    expect(e.message).toBe("Invalid credentials");
    expect(state.loginRequired).toBe(0);
  });

  it("401 on login without an error body is still InvalidCredentialsError", async () => {
    respond = (_req, res) => {
      res.writeHead(401);
      res.end();
    };
    const { c } = client();
    const e = await failure(c.call("login", { body: { login: "a@b.c", password: "wrong" } }));
    expect(e).toBeInstanceOf(InvalidCredentialsError);
    expect(e.message).toBe("Invalid credentials");
  });

  it("401 anywhere else is LoginRequiredError and calls onLoginRequired", async () => {
    respond = json(401, errorBody({ code: "login_required", message: "Your session has ended. Please sign in again." }));
    const { c, state } = client();
    for (const call of [() => c.call("getMyContact"), () => c.call("hasUserAccountValidationRights"), () => c.call("logout")]) {
      const e = await failure(call());
      expect(e).toBeInstanceOf(LoginRequiredError);
      expect(e.kind).toBe("login-required");
      expect(e.message).toBe("Your session has ended. Please sign in again.");
    }
    expect(state.loginRequired).toBe(3);
  });

  it("a 4xx with an error body is RefusedError exposing status, code, msg and fields", async () => {
    respond = json(
      400,
      errorBody({
        code: "validation_failed",
        message: "Password must be at least 8 characters long",
        msgid: "Password must be at least {n} characters long",
        values: { n: 8 },
        fields: { password: { msgid: "Password must be at least {n} characters long", values: { n: 8 } }, email: { msgid: "Invalid email." } },
      }),
    );
    const { c, state } = client();
    const e = (await failure(c.call("signup", { body: { email: "x", firstName: "a", lastName: "b", password: "c" } }))) as RefusedError;
    expect(e).toBeInstanceOf(RefusedError);
    expect(e.kind).toBe("refused");
    expect(e.status).toBe(400);
    expect(e.code).toBe("validation_failed");
    expect(e.message).toBe("Password must be at least 8 characters long");
    expect(e.msg).toEqual({ id: "Password must be at least {n} characters long", values: { n: 8 } });
    expect(e.fields).toEqual({
      password: { id: "Password must be at least {n} characters long", values: { n: 8 } },
      email: { id: "Invalid email." },
    });
    expect(state.loginRequired).toBe(0);
  });

  it("a 429 is RefusedError carrying the wait", async () => {
    respond = json(
      429,
      errorBody({
        code: "rate_limited",
        message: "Too many attempts. Please wait 2 minutes and try again.",
        msgid: "Too many attempts. Please wait {minutes} minutes and try again.",
        values: { minutes: 2 },
        retryAfter: 90,
      }),
      { "retry-after": "90" },
    );
    const { c } = client();
    const e = (await failure(c.call("login", { body: { login: "a@b.c", password: "x" } }))) as RefusedError;
    expect(e).toBeInstanceOf(RefusedError);
    expect([e.status, e.code, e.body.retryAfter]).toEqual([429, "rate_limited", 90]);
    expect(e.msg).toEqual({ id: "Too many attempts. Please wait {minutes} minutes and try again.", values: { minutes: 2 } });
  });

  it("a RefusedError without msgid falls back to the message as its msg", async () => {
    respond = json(404, errorBody({ code: "not_found", message: "Not found." }));
    const { c } = client();
    const e = (await failure(c.call("getBackends"))) as RefusedError;
    expect(e.msg).toEqual({ id: "Not found." });
    expect(e.fields).toEqual({});
  });

  it("a 4xx without an error body is UnexpectedError", async () => {
    respond = (_req, res) => {
      res.writeHead(404, { "content-type": "text/html" });
      res.end("<h1>Not here</h1>");
    };
    const { c } = client();
    const e = (await failure(c.call("getBackends"))) as UnexpectedError;
    expect(e).toBeInstanceOf(UnexpectedError);
    expect(e.status).toBe(404);
  });

  it("a 500 is UnexpectedError, with the server's message when it gave one", async () => {
    respond = json(500, errorBody({ code: "internal_error", message: "An unexpected error occurred on the server." }));
    const { c, state } = client();
    const e = (await failure(c.call("getMyContact"))) as UnexpectedError;
    expect(e).toBeInstanceOf(UnexpectedError);
    expect(e.kind).toBe("unexpected");
    expect(e.status).toBe(500);
    expect(e.message).toContain("An unexpected error occurred on the server.");
    expect(state.loginRequired).toBe(0);

    respond = (_req, res) => {
      res.writeHead(500);
      res.end("boom");
    };
    expect(await failure(c.call("login", { body: { login: "a@b.c", password: "x" } }))).toBeInstanceOf(UnexpectedError);
  });

  it("a 200 that is not JSON is UnexpectedError", async () => {
    respond = (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<!doctype html><title>captive portal</title>");
    };
    const { c } = client();
    const e = (await failure(c.call("getMyContact"))) as UnexpectedError;
    expect(e).toBeInstanceOf(UnexpectedError);
    expect(e.status).toBe(200);
  });

  it("a connection cut in the middle of the answer is RequestFailedError", async () => {
    respond = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"id": 1, ');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    const { c } = client();
    expect(await failure(c.call("getMyContact"))).toBeInstanceOf(RequestFailedError);
  });

  it("an answer whose body never finishes is RequestFailedError after timeoutMs", async () => {
    respond = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id": 1, ');
    };
    const { c } = client({ timeoutMs: 200 });
    const t0 = Date.now();
    expect(await failure(c.call("getMyContact"))).toBeInstanceOf(RequestFailedError);
    expect(Date.now() - t0).toBeLessThan(3_000);
  });
});
