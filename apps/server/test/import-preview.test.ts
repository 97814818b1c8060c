import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { previewImport } from "../src/services/import/preview";
import { createBackend, countMembers, seedMember } from "./helpers";
import { importInvariantViolations } from "./import-invariants";
import { setupServerTest } from "./setup";

/**
 * What an import would do, checked before anything is written (`npm run import -- --dry-run`):
 * the members to import and their total, those already members, the history's sums, and every
 * problem with its file, line, column and value. Nothing is written.
 */
const t = setupServerTest({ server: false });
const ROOT = path.resolve(import.meta.dirname, "../../..");
const FIXTURES = path.join(import.meta.dirname, "fixtures/import");
let dir: string;
let custodial: string;

const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
};
const MEMBERS = `external_id,first_name,last_name,email,balance
m1,Zoé,Martin,zoe@example.org,120.00
m2,Paul,Durand,paul@example.org,30.50
m3,Ada,Lovelace,ada@example.org,0
`;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-import-"));
  const backend = await createBackend(t.db, { kind: "custodial", symbol: "FLO" });
  custodial = backend.id;
  await t.db.query("UPDATE association SET currency_id = $1", [backend.currency_id]);
  await seedMember(t.db, { email: "ada@example.org", firstName: "Ada", lastName: "Lovelace" });
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  expect(await importInvariantViolations(t.db)).toEqual([]);
});

describe("an import's preview", () => {
  it("counts the members to import and their total, names those already members, and finds the association's custodial backend", async () => {
    const before = await countMembers(t.db);
    const p = await previewImport(t.db, { members: write("members.csv", MEMBERS) });
    expect(p.problems).toEqual([]);
    expect(p.backend).toMatchObject({ id: custodial, kind: "custodial", symbol: "FLO" });
    expect(p.members).toMatchObject({ preset: "mutua", read: 3, toImport: 2, total: "150.50 FLO", existing: [{ line: 4, email: "ada@example.org" }] });
    expect(p.members.sample.map((m) => m.externalId)).toEqual(["m1", "m2"]);
    expect(await countMembers(t.db)).toBe(before);
  });

  it("refuses a history that does not add up to a member's closing balance, naming the member and both sums", async () => {
    const history = write(
      "history.csv",
      `date,from,to,amount,memo,reference
2024-03-15,,m1,100.00,Change,T1
2024-03-16,,m2,30.50,Change,T2
2024-03-17,m2,m1,10.00,Bread,T3
`,
    );
    const p = await previewImport(t.db, { members: write("members.csv", MEMBERS), history });
    expect(p.history).toMatchObject({ lines: 3, cameIn: "130.50", wentOut: "0.00", first: "2024-03-15T11:00:00.000Z" });
    expect(p.problems).toEqual([
      {
        file: path.join(dir, "members.csv"),
        line: 2,
        column: "balance",
        value: "120.00",
        reference: "m1",
        message: "member m1 (Zoé Martin): the members file says 120.00, the history adds up to 110.00",
        code: "member {member} ({name}): the members file says {balance}, the history adds up to {sum}",
        params: { member: "m1", name: "Zoé Martin", balance: "120.00", sum: "110.00" },
      },
      {
        file: path.join(dir, "members.csv"),
        line: 3,
        column: "balance",
        value: "30.50",
        reference: "m2",
        message: "member m2 (Paul Durand): the members file says 30.50, the history adds up to 20.50",
        code: "member {member} ({name}): the members file says {balance}, the history adds up to {sum}",
        params: { member: "m2", name: "Paul Durand", balance: "30.50", sum: "20.50" },
      },
    ]);
  });

  it("refuses a ledger backend (its wallets are made on members' devices) and a custodial account below 0", async () => {
    const ledger = await createBackend(t.db, { kind: "ledger", cmFloor: "-100.00" });
    const p = await previewImport(t.db, { members: write("debt.csv", MEMBERS.replace("30.50", "-5.00")), backendId: ledger.id });
    expect(p.problems[0]).toMatchObject({ file: "--backend", value: ledger.id, message: expect.stringContaining("is a ledger backend") });
    const q = await previewImport(t.db, { members: write("debt.csv", MEMBERS.replace("30.50", "-5.00")) });
    expect(q.problems).toEqual([
      expect.objectContaining({ line: 3, column: "balance", value: "-5.00", message: expect.stringContaining("cannot be below 0") }),
    ]);
  });

  it("npm run import -- --dry-run reads a French spreadsheet's files and prints each problem with its place; nothing is written", async () => {
    const before = await countMembers(t.db);
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/cli/import.ts", ...args], {
          cwd: ROOT,
          env: { ...process.env, DATABASE_URL: t.tdb.url },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        child.stdout.on("data", (d) => (out += d));
        child.stderr.on("data", (d) => (out += d));
        child.on("exit", (code) => resolve({ code, out }));
      });
    const files = [
      "--members",
      path.join(FIXTURES, "adherents-1252.csv"),
      "--history",
      path.join(FIXTURES, "historique-1252.csv"),
      "--map",
      path.join(FIXTURES, "mapping-fr.json"),
    ];
    // Without --dry-run the import itself refuses, with the same problems, and writes nothing.
    const refused = await run(files);
    expect(refused.code, refused.out).toBe(1);
    expect(refused.out).toContain("nothing can be imported until they are fixed");
    expect(await countMembers(t.db)).toBe(before);
    const { code, out } = await run([...files, "--dry-run"]);
    expect(code, out).toBe(1);
    expect(out).toContain("Members: adherents-1252.csv (columns from the mapping, windows-1252, separated by semicolons)");
    expect(out).toContain("Columns not imported: Remarques");
    expect(out).toContain("Rights are not imported (column Droits): an owner grants them from the members' pages once the members are in.");
    expect(out).toContain("History: historique-1252.csv (columns from the mapping, windows-1252, separated by semicolons)");
    expect(out).toContain("3 movements from 2024-03-15 to 2024-04-01");
    expect(out).toContain('adherents-1252.csv, row 3 (A002), column Solde, value "-12.50": a custodial account cannot be below 0');
    expect(await countMembers(t.db)).toBe(before);
    // --help is a usage, not an unknown option.
    const help = await run(["--help"]);
    expect(help.code, help.out).toBe(0);
    expect(help.out).toMatch(/^Usage: npm run import -- --members members\.csv/);
    expect(help.out).toContain("--dry-run");
  });

  it("npm run import -- --map with a file that is not a mapping says so without echoing a word of it", async () => {
    const secret = "s3cret-host.internal.example";
    const notJson = write("hostname", `${secret}\n`);
    const notMapping = write("other.json", JSON.stringify({ [secret]: { [secret]: secret } }));
    for (const map of [notJson, notMapping]) {
      const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          ["--import", "tsx", "apps/server/src/cli/import.ts", "--members", write("m.csv", MEMBERS), "--map", map, "--dry-run"],
          {
            cwd: ROOT,
            env: { ...process.env, DATABASE_URL: t.tdb.url },
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        let text = "";
        child.stdout.on("data", (d) => (text += d));
        child.stderr.on("data", (d) => (text += d));
        child.on("exit", (c) => resolve({ code: c, out: text }));
      });
      expect(code, out).toBe(1);
      expect(out).toContain(`${map} is not a valid mapping`);
      expect(out).not.toContain(secret);
    }
  });
});
