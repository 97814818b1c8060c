import fs from "node:fs";
import path from "node:path";
import { openTarget, pgTool, runTool, serverMajor } from "./target";

/**
 * `npm run backup -- [file]`: a pg_dump (custom format) of the server's database, the embedded
 * one (even while Mutua runs: pg_dump reads one consistent snapshot) or DATABASE_URL's.
 * Written beside its final name and renamed at the end, so a failed run leaves no half file.
 */
async function main() {
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "Z");
  // npm runs scripts from the repository root; a relative path means where the operator typed it.
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2] ?? path.join("backups", `mutua-${stamp}.dump`));
  const target = await openTarget();
  try {
    const dump = pgTool("pg_dump", await serverMajor(target.url));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.partial`;
    try {
      runTool(dump, ["--format=custom", "--no-owner", "--no-privileges", `--file=${partial}`], target.url);
      fs.renameSync(partial, file);
    } finally {
      fs.rmSync(partial, { force: true });
    }
    console.log(`Backup of ${target.label} written to ${file} (${fs.statSync(file).size} bytes)`);
  } finally {
    await target.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
