import { randomBytes } from "node:crypto";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import type { FastifyInstance } from "fastify";
import { MutuaClient, type ClientOptions } from "@mutua/client";
import type { ErrorBody } from "@mutua/domain";
import { buildApp } from "../src/app";
import { migrate } from "../src/db/migrate";
import { createPool, type Db } from "../src/db/pool";
import { readSettings, type Settings } from "../src/settings";
import { outboxMailer, type Mailer } from "../src/services/mail";
import { createMember } from "../src/services/members";
import { hashPassword } from "../src/services/passwords";

export interface TestDatabase {
  name: string;
  url: string;
  db: Db;
  /** Closes the pool and drops the database, even with connections still open elsewhere. */
  drop(): Promise<void>;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: inject("pgAdminUrl") });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A fresh, migrated database of its own for one test file, on the suite's PostgreSQL. */
export async function createTestDatabase(opts: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const name = `mutua_test_${randomBytes(6).toString("hex")}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const u = new URL(inject("pgAdminUrl"));
  u.pathname = `/${name}`;
  const url = u.toString();
  if (opts.migrate !== false) await migrate(url);
  const db = createPool(url, 10);
  let dropped = false;
  return {
    name,
    url,
    db,
    async drop() {
      if (dropped) return;
      dropped = true;
      await db.end().catch(() => undefined);
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** The password of seeded members; its hash is computed once per file and shared. */
export const TEST_PASSWORD = "Test1234!";
let sharedHash: Promise<string> | undefined;
const defaultHash = () => (sharedHash ??= hashPassword(TEST_PASSWORD));

export interface SeededMember {
  id: bigint;
  email: string;
  password: string;
}

let seq = 0;
/** A unique address per call, so tests in one file never collide on e-mails or rate-limit buckets. */
export const uniqueEmail = (tag = "member") => `${tag}-${process.pid}-${++seq}-${randomBytes(3).toString("hex")}@example.org`;

/**
 * Inserts a member directly. `hashCost` lowers the scrypt cost of this member's hash (it travels
 * with the hash, so the server verifies it at that cost): for tests that need many fast logins.
 */
export async function seedMember(
  db: Db,
  m: { email?: string; firstName?: string; lastName?: string; password?: string; hashCost?: number; canValidateAccounts?: boolean; canValidateCredits?: boolean } = {},
): Promise<SeededMember> {
  const password = m.password ?? TEST_PASSWORD;
  const passwordHash = password === TEST_PASSWORD && m.hashCost === undefined ? await defaultHash() : await hashPassword(password, m.hashCost);
  const email = m.email ?? uniqueEmail();
  const id = await createMember(db, {
    email,
    firstName: m.firstName ?? "Test",
    lastName: m.lastName ?? "Member",
    passwordHash,
    canValidateAccounts: m.canValidateAccounts ?? false,
    canValidateCredits: m.canValidateCredits ?? false,
  });
  return { id, email: email.trim().toLowerCase(), password };
}

export interface TestServer {
  app: FastifyInstance;
  baseUrl: string;
  settings: Settings;
  close(): Promise<void>;
}

/** A folder that never exists, so no test depends on whether the web app has been built. */
export const NO_WEB_DIR = path.join(os.tmpdir(), "mutua-test-no-web-app");

/**
 * Builds the real app on `db` with settings read from `env` (as from environment variables)
 * and listens on a free port of 127.0.0.1. Without a mailer, mail goes to a throwaway outbox.
 */
export async function startServer(db: Db, opts: { env?: Record<string, string>; mailer?: Mailer } = {}): Promise<TestServer> {
  let outbox: string | undefined;
  let mailer = opts.mailer;
  if (!mailer) {
    outbox = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-test-outbox-"));
    mailer = outboxMailer(outbox, "Mutua <no-reply@localhost>", () => {});
  }
  const settings = readSettings({ HOST: "127.0.0.1", PORT: "0", WEB_DIR: NO_WEB_DIR, ...opts.env });
  const app = await buildApp({ db, settings, mailer });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    settings,
    async close() {
      await app.close();
      if (outbox) fs.rmSync(outbox, { recursive: true, force: true });
    },
  };
}

/** A fetch that claims to come from `ip` (honoured only with TRUST_PROXY), to give tests distinct clients. */
export function fetchFrom(ip: string): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("X-Forwarded-For", ip);
    return fetch(input, { ...init, headers });
  };
}

/**
 * One member's view of the server: a typed client whose token store is filled by `login`,
 * counting the onLoginRequired callbacks the client makes.
 */
export class Session {
  token: string | null = null;
  loginRequiredCalls = 0;
  readonly client: MutuaClient;

  constructor(baseUrl: string, opts: Partial<ClientOptions> = {}) {
    this.client = new MutuaClient({
      baseUrl,
      getToken: () => this.token,
      onLoginRequired: () => {
        this.loginRequiredCalls++;
      },
      ...opts,
    });
  }

  async login(email: string, password: string) {
    const r = await this.client.login(email, password);
    this.token = r.token;
    return r;
  }
}

export interface RawResponse<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  json: T;
}

/** A plain HTTP call, for what the typed client deliberately hides (status, headers, odd bodies). */
export async function http<T = unknown>(
  baseUrl: string,
  method: string,
  urlPath: string,
  opts: { body?: unknown; rawBody?: string; token?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    headers["content-type"] ??= "application/json";
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(baseUrl + urlPath, { method, headers, body });
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON: callers look at text */
  }
  return { status: res.status, headers: res.headers, text, json: json as T };
}

export type ErrorJson = ErrorBody;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function countMembers(db: Db): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM members");
  return rows[0]!.n;
}
