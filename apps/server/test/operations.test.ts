import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPool } from "../src/db/pool";
import { Api, createTestDatabase, freePort, http, NO_WEB_DIR, seedMember, sleep, startServer, type TestDatabase } from "./helpers";

/** Operations: one log line per request without secrets, liveness and readiness, a shutdown that finishes requests in flight. */
const ROOT = path.resolve(import.meta.dirname, "../../..");
let tdb: TestDatabase;

beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb?.drop();
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
    const server = await startServer(tdb.db, { logStream: stream });
    try {
      const m = await seedMember(tdb.db);
      const login = await http<{ token: string }>(server.baseUrl, "POST", "/api/auth/login", { body: { login: m.email, password: m.password } });
      expect(login.status).toBe(200);
      const session = login.json.token;
      const me = await new Api(server.baseUrl, session).call("getMyContact");
      expect(me.status).toBe(200);
      await http(server.baseUrl, "GET", "/reset-password?token=reset-secret-123456");
      const traced = await http(server.baseUrl, "GET", "/api/health", { headers: { "x-request-id": "lb-trace-42" } });
      await sleep(50);

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
    const up = await startServer(tdb.db);
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
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: tdb.url, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "silent", WEB_DIR: NO_WEB_DIR };
    const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    try {
      for (let i = 0; ; i++) {
        try {
          if ((await fetch(`http://127.0.0.1:${port}/api/ready`)).ok) break;
        } catch {
          /* not yet */
        }
        if (i > 300) throw new Error(`server did not start:\n${output}`);
        await sleep(100);
      }
      // A login whose body is still on its way when the operator stops the server.
      const body = JSON.stringify({ login: "nobody@example.org", password: "not-it" });
      const socket = net.connect(port, "127.0.0.1");
      await new Promise((r) => socket.once("connect", r));
      let answer = "";
      socket.on("data", (d) => (answer += d));
      const closed = new Promise((r) => socket.once("close", r));
      socket.write(`POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
      await sleep(200);
      child.kill("SIGTERM");
      await sleep(500);
      // Stopping: no new connection is taken.
      await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
      socket.write(body.slice(10));
      for (let i = 0; i < 100 && !answer.includes("\r\n\r\n"); i++) await sleep(50);
      socket.destroy();
      await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 401/);
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
