import fs from "node:fs";
import { makeDataTemplate, TEMPLATE_ENV } from "./server";

/**
 * Once per run: the demo association's data folder that every test file's server starts from a
 * copy of (e2e/support/server.ts), rather than each making and seeding its own PostgreSQL.
 */
export default async function setup(): Promise<() => void> {
  const dir = await makeDataTemplate();
  process.env[TEMPLATE_ENV] = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
