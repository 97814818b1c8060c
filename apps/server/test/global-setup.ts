import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../src/db/embedded";
import { migrate } from "../src/db/migrate";

declare module "vitest" {
  export interface ProvidedContext {
    /** Maintenance-database URL of the PostgreSQL the server tests create their databases on. */
    pgAdminUrl: string;
    /** A database migrated once for the run, that each file's database is copied from (CREATE DATABASE … TEMPLATE). */
    pgTemplate: string;
  }
}

/**
 * Migrates one database for the whole run: copying it takes PostgreSQL some 80 ms where running
 * every migration takes 1.5 s, once per file and per pass. The migrations themselves are still
 * run on empty databases by migrate.test.ts and functions.test.ts.
 */
async function makeTemplate(adminUrl: string): Promise<{ name: string; drop(): Promise<void> }> {
  const name = `mutua_template_${randomBytes(6).toString("hex")}`;
  const sql = async (text: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(text);
    } finally {
      await c.end();
    }
  };
  await sql(`CREATE DATABASE ${name}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  await migrate(u.toString());
  // Set up, as `npm run setup` leaves a database: an association (named like the server's
  // default, so the tests' expected names hold) on a currency of its own with no backend. Tests
  // add the backends they need; migrate.test.ts and the setup's own tests start from empty ones.
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  try {
    await c.query("INSERT INTO currencies (id, name, symbol) VALUES ('association', 'Association currency', 'AC')");
    await c.query("INSERT INTO association (name, currency_id) VALUES ('Association', 'association')");
  } finally {
    await c.end();
  }
  return { name, drop: () => sql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * One PostgreSQL for the whole server suite: the machine's own when TEST_PG_URL is set (CI's
 * second pass), else one embedded cluster in a fresh temp dir. Every test file creates its
 * own database on it, so files stay independent while paying for one cluster start only.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.TEST_PG_URL;
  if (external) {
    const template = await makeTemplate(external);
    project.provide("pgAdminUrl", external);
    project.provide("pgTemplate", template.name);
    return () => template.drop();
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-test-pg-"));
  // Start-up chatter (user creation, initdb) is noise here; a failed start throws with the log's tail.
  const cluster = await startEmbeddedPostgres(dir, { log: () => {} }).catch((e: unknown) => {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  });
  const template = await makeTemplate(cluster.adminUrl).catch(async (e: unknown) => {
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  });
  project.provide("pgAdminUrl", cluster.adminUrl);
  project.provide("pgTemplate", template.name);
  return async () => {
    await template.drop();
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
