import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createPool } from "../src/db/pool";
import { Api, freePort, http, NO_WEB_DIR, seedMember, startServer } from "./helpers";
import { setupServerTest } from "./setup";

/** Operations: one log line per request without secrets, liveness and readiness, a shutdown that finishes requests in flight. */
const ROOT = path.resolve(import.meta.dirname, "../../..");
const t = setupServerTest({ server: false });

/**
 * Polls `check` until it holds or `timeoutMs` has gone by, and says whether it held: for waiting
 * on something to happen (a log line, a port, an answer), never for time itself to pass.
 */
async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  for (const end = Date.now() + timeoutMs; ;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Whether the server has read all that was sent on the connection from `clientPort` to
 * `serverPort`: nothing is left unacknowledged on our side nor unread on the server's (Linux's
 * /proc/net/tcp; the server listens on 127.0.0.1).
 */
function readByServer(serverPort: number, clientPort: number): boolean {
  const queues = new Map<string, { tx: number; rx: number }>();
  for (const line of fs.readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 5) continue;
    const port = (address: string) => parseInt(address.split(":")[1]!, 16);
    const [tx, rx] = f[4]!.split(":").map((h) => parseInt(h, 16));
    queues.set(`${port(f[1]!)}>${port(f[2]!)}`, { tx: tx!, rx: rx! });
  }
  return queues.get(`${clientPort}>${serverPort}`)?.tx === 0 && queues.get(`${serverPort}>${clientPort}`)?.rx === 0;
}

/** Whether a new connection to the port is refused (nothing listens there any more). */
const refusesConnections = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = net.connect(port, "127.0.0.1");
    probe.once("connect", () => {
      probe.destroy();
      resolve(false);
    });
    probe.once("error", () => resolve(true));
  });

describe("request logs", () => {
  it("writes one JSON line per request, with the id it answers in X-Request-Id, and no password, token or query string", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split("\n").filter(Boolean));
        done();
      },
    });
    const server = await startServer(t.db, { logStream: stream });
    try {
      const m = await seedMember(t.db);
      const login = await http<{ token: string }>(server.baseUrl, "POST", "/api/auth/login", { body: { login: m.email, password: m.password } });
      expect(login.status).toBe(200);
      const session = login.json.token;
      const me = await new Api(server.baseUrl, session).call("getMyContact");
      expect(me.status).toBe(200);
      await http(server.baseUrl, "GET", "/reset-password?token=reset-secret-123456");
      const traced = await http(server.baseUrl, "GET", "/api/health", { headers: { "x-request-id": "lb-trace-42" } });
      // A request's line is written once its answer has gone out (onResponse): wait for the last one.
      await waitFor(() => lines.some((l) => (JSON.parse(l) as { msg: string; reqId: string }).msg === "request" && l.includes('"lb-trace-42"')), 5_000);

      const entries = lines.map((l) => JSON.parse(l) as { msg: string; reqId: string; path?: string; status?: number });
      const requests = entries.filter((e) => e.msg === "request");
      expect(requests.map((e) => e.path)).toEqual(["/api/auth/login", "/api/me", "/reset-password", "/api/health"]);
      expect(requests.find((e) => e.path === "/api/me")!.reqId).toBe(me.headers.get("x-request-id"));
      expect(requests.find((e) => e.path === "/api/health")!.reqId).toBe("lb-trace-42");
      expect(traced.headers.get("x-request-id")).toBe("lb-trace-42");
      expect(new Set(requests.map((e) => e.reqId)).size).toBe(4);
      const all = lines.join("\n");
      for (const secret of [m.password, session, "reset-secret-123456", m.email]) expect(all).not.toContain(secret);
    } finally {
      await server.close();
    }
  });
});

describe("health and readiness", () => {
  it("is alive without the database, and ready only when the database answers", async () => {
    const up = await startServer(t.db);
    const deadPool = createPool(`postgres://nobody@127.0.0.1:${await freePort()}/nothing`, 1);
    const down = await startServer(deadPool);
    try {
      expect((await http(up.baseUrl, "GET", "/api/health")).status).toBe(200);
      expect((await http(up.baseUrl, "GET", "/api/ready")).status).toBe(200);
      expect((await http(down.baseUrl, "GET", "/api/health")).status).toBe(200);
      const notReady = await http<{ error: { code: string } }>(down.baseUrl, "GET", "/api/ready");
      expect(notReady.status).toBe(503);
      expect(notReady.json.error.code).toBe("service_unavailable");
    } finally {
      await up.close();
      await down.close();
      await deadPool.end().catch(() => undefined);
    }
  });
});

describe("graceful shutdown", () => {
  it("finishes a request in flight after SIGTERM, refuses new connections, and exits cleanly", async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: t.tdb.url, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "silent", WEB_DIR: NO_WEB_DIR };
    const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    try {
      const ready = async () => (await fetch(`http://127.0.0.1:${port}/api/ready`).catch(() => undefined))?.ok === true;
      if (!(await waitFor(ready, 30_000))) throw new Error(`server did not start:\n${output}`);
      // A login whose body is still on its way when the operator stops the server.
      const body = JSON.stringify({ login: "nobody@example.org", password: "not-it" });
      const socket = net.connect(port, "127.0.0.1");
      await new Promise((r) => socket.once("connect", r));
      let answer = "";
      socket.on("data", (d) => (answer += d));
      const closed = new Promise((r) => socket.once("close", r));
      await new Promise((r) =>
        socket.write(
          `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
          r,
        ),
      );
      // In flight once the server has read its headers (it parses them as it reads).
      if (!(await waitFor(() => readByServer(port, socket.localPort!), 10_000))) throw new Error("the server did not read the request's headers");
      child.kill("SIGTERM");
      // Stopping: no new connection is taken.
      await waitFor(() => refusesConnections(port), 10_000);
      await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
      socket.write(body.slice(10));
      await waitFor(() => answer.includes("\r\n\r\n"), 5_000);
      socket.destroy();
      await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 401/);
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
