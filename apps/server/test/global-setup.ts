import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../src/db/embedded";

declare module "vitest" {
  export interface ProvidedContext {
    /** Maintenance-database URL of the PostgreSQL the server tests create their databases on. */
    pgAdminUrl: string;
  }
}

/**
 * One PostgreSQL for the whole server suite: the machine's own when TEST_PG_URL is set (CI's
 * second pass), else one embedded cluster in a fresh temp dir. Every test file creates its
 * own database on it, so files stay independent while paying for one cluster start only.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const external = process.env.TEST_PG_URL;
  if (external) {
    project.provide("pgAdminUrl", external);
    return undefined;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-test-pg-"));
  // Start-up chatter (user creation, initdb) is noise here; a failed start throws with the log's tail.
  const pg = await startEmbeddedPostgres(dir, { log: () => {} }).catch((e: unknown) => {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  });
  project.provide("pgAdminUrl", pg.adminUrl);
  return async () => {
    await pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
