import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { booksStatementsCsv, type BooksLabels } from "@mutua/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { books } from "../src/services/board/books";
import { figures } from "../src/services/board/figures";
import { runImport, type ImportOutcome } from "../src/services/import/write";
import type { BackendRow } from "../src/services/wallets/wallets";
import { createBackend } from "./helpers";
import { generateImport } from "./import-generator";
import { setupServerTest } from "./setup";

/**
 * Writing an import (services/import/write.ts): members, wallets, opening balances or the history
 * with its original dates, in one transaction; nothing at all when any problem remains; nothing
 * new when the same files come again.
 */
const t = setupServerTest({ server: false });
const ROOT = path.resolve(import.meta.dirname, "../../..");
let dir: string;
let backend: BackendRow;

const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
};

/** Everything an import writes, counted: an import refused must leave each as it was. */
async function footprint() {
  const { rows } = await t.db.query<Record<string, number>>(
    `SELECT (SELECT count(*) FROM members)::int AS members, (SELECT count(*) FROM wallets)::int AS wallets,
       (SELECT count(*) FROM accounts)::int AS accounts, (SELECT count(*) FROM movements)::int AS movements,
       (SELECT count(*) FROM postings)::int AS postings, (SELECT count(*) FROM imports)::int AS imports,
       (SELECT count(*) FROM member_external_ids)::int AS external_ids, (SELECT count(*) FROM audit_log)::int AS audit,
       (SELECT count(*) FROM member_events)::int AS events, (SELECT count(*) FROM reconversions)::int AS reconversions`,
  );
  return rows[0]!;
}

const balanceOf = async (email: string) => {
  const { rows } = await t.db.query<{ balance: string }>(
    "SELECT a.balance::text FROM members m JOIN wallets w ON w.member_id = m.id AND w.backend_id = $2 JOIN accounts a ON a.wallet_id = w.id WHERE m.email = $1",
    [email, backend.id],
  );
  return rows[0]?.balance ?? null;
};

const imported = (o: ImportOutcome) => {
  if (o.kind !== "imported") throw new Error(`refused: ${JSON.stringify(o.problems)}`);
  return o;
};

const LABELS: BooksLabels = {
  reference: "Reference",
  date: "Date",
  kind: "Kind",
  payer: "Payer",
  payee: "Payee",
  currency: "Currency",
  amount: "Amount",
  senderMemo: "Sender memo",
  recipientMemo: "Recipient memo",
  payerBalance: "Payer balance after",
  payeeBalance: "Payee balance after",
  account: "Account",
  wallet: "Wallet",
  counterparty: "Counterparty",
  memo: "Memo",
  balance: "Balance",
  openingBalance: "Opening balance",
  kinds: { payment: "Payment", topup: "Top-up", reconversion: "Reconversion", retirement: "Reconversion paid out", opening: "Opening balance" },
  issuance: "Association (issuance)",
  safe: "Association (safe)",
  clearing: (association) => `Clearing with ${association}`,
  crossingAssociation: "Other association",
  crossingAmount: "Amount in the other currency",
  crossingCurrency: "Other currency",
  crossingRate: "Exchange rate",
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-import-write-"));
  backend = await createBackend(t.db, { kind: "custodial", symbol: "FLO" });
  await t.db.query("UPDATE association SET currency_id = $1", [backend.currency_id]);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("an import without history", () => {
  it("makes each member with a wallet and their closing balance as an opening balance in their language; the circulation is the file's sum; again, nothing changes", async () => {
    const members = write(
      "members.csv",
      `external_id,first_name,last_name,email,language,balance,rights,business
o1,Zoé,Martin,zoe.open@example.org,fr,120.00,board,
o2,Paul,Durand,paul.open@example.org,en,30.50,,yes
o3,Ada,Lovelace,ada.open@example.org,,0,,
`,
    );
    const before = await footprint();
    const out = imported(await runImport(t.db, { members, by: null }));
    expect(out).toMatchObject({ members: 3, linked: 0, movements: 2, total: "150.50" });
    expect(await balanceOf("zoe.open@example.org")).toBe("12000");
    expect(await balanceOf("paul.open@example.org")).toBe("3050");
    expect(await balanceOf("ada.open@example.org")).toBe("0");
    const { rows: memos } = await t.db.query<{ email: string; kind: string; recipient_memo: string; figures: boolean; business: boolean }>(
      `SELECT m.email, mv.kind, mv.recipient_memo, m.can_view_figures AS figures, m.is_business AS business
       FROM movements mv JOIN wallets w ON w.id = mv.payee_wallet_id JOIN members m ON m.id = w.member_id WHERE mv.import_id = $1 ORDER BY m.email`,
      [out.importId],
    );
    expect(memos).toEqual([
      { email: "paul.open@example.org", kind: "opening", recipient_memo: "Opening balance", figures: false, business: true },
      { email: "zoe.open@example.org", kind: "opening", recipient_memo: "Solde d'ouverture", figures: true, business: false },
    ]);
    const after = await footprint();
    // Old balances are no news: no event, so no notification.
    expect(after.events).toBe(before.events);
    expect(after.audit).toBe(before.audit! + 1);
    const { rows: audit } = await t.db.query<{ details: Record<string, unknown> }>(
      "SELECT details FROM audit_log WHERE action = 'import.run' ORDER BY id DESC LIMIT 1",
    );
    expect(audit[0]!.details).toMatchObject({ membersFile: members, members: 3, movements: 2, total: "150.50" });

    const today = new Date().toISOString().slice(0, 10);
    const f = await figures(t.db, { from: today, to: today, tz: "UTC", interval: "month" });
    const flo = f.currencies.find((c) => c.currencyId === backend.currency_id)!;
    expect(flo.circulation).toBe("150.50");
    // What the association holds in euros for those balances, and no top-up of the day.
    expect(flo.reserve).toBe("150.50");
    expect(flo.totals.topup.count).toBe(0);

    const again = imported(await runImport(t.db, { members, by: null }));
    expect(again).toMatchObject({ members: 0, movements: 0, alreadyImported: 3 });
    const last = await footprint();
    // Not even an empty import is recorded.
    expect(last).toEqual(after);
  });
});

describe("an import with a history", () => {
  it("posts each line on its original date in date order, reconversions paid out; the statements show them with running balances ending at the closing balance", async () => {
    const members = write(
      "h-members.csv",
      `external_id,first_name,last_name,email,balance
h1,Léa,Roux,lea.h@example.org,77.50
h2,Marc,Petit,marc.h@example.org,12.50
`,
    );
    const history = write(
      "h-history.csv",
      `date,from,to,amount,memo,reference
2024-03-15,,h1,100.00,Change,T1
2024-03-16 14:30,h1,h2,12.50,Bread,T2
2024-04-01,h1,,10.00,Back to euros,T3
`,
    );
    const out = imported(await runImport(t.db, { members, history, by: null, timeZone: "Europe/Paris" }));
    // Three lines: a top-up, a payment, and a reconversion with its payout.
    expect(out).toMatchObject({ members: 2, movements: 4, total: "90.00" });
    expect(await balanceOf("lea.h@example.org")).toBe("7750");
    const { rows: moved } = await t.db.query<{ kind: string; at: string; status: string | null }>(
      `SELECT mv.kind, to_char(mv.created_at AT TIME ZONE 'Europe/Paris', 'YYYY-MM-DD HH24:MI') AS at, r.status
       FROM movements mv LEFT JOIN reconversions r ON r.movement_id = mv.id WHERE mv.import_id = $1 ORDER BY mv.id`,
      [out.importId],
    );
    expect(moved).toEqual([
      { kind: "topup", at: "2024-03-15 12:00", status: null },
      { kind: "payment", at: "2024-03-16 14:30", status: null },
      { kind: "reconversion", at: "2024-04-01 12:00", status: "paid" },
      { kind: "retirement", at: "2024-04-01 12:00", status: null },
    ]);

    const b = await books(t.db, { from: "2024-03-01", to: "2024-04-30", tz: "Europe/Paris" });
    const csv = booksStatementsCsv(b, LABELS, ".");
    const lea = csv.split("\r\n").filter((l) => l.startsWith('"Léa Roux"'));
    expect(lea).toEqual([
      expect.stringContaining('"2024-03-01 00:00:00","","Opening balance","","","FLO","","0.00"'),
      expect.stringMatching(/"2024-03-15 12:00:00","tx_\w+","Top-up","Association \(issuance\)","Change","FLO","100.00","100.00"/),
      expect.stringMatching(/"2024-03-16 14:30:00","tx_\w+","Payment","Marc Petit","Bread","FLO","-12.50","87.50"/),
      expect.stringMatching(/"2024-04-01 12:00:00","tx_\w+","Reconversion","Association \(safe\)","Back to euros","FLO","-10.00","77.50"/),
    ]);

    // The same files again: nothing new; the history's lines are known by their references.
    const before = await footprint();
    const again = imported(await runImport(t.db, { members, history, by: null, timeZone: "Europe/Paris" }));
    expect(again).toMatchObject({ members: 0, movements: 0, alreadyImported: 2, skippedLines: 3 });
    expect(await footprint()).toEqual(before);
  });

  it("a later file adds only its new members and their history", async () => {
    const members = write(
      "l-members.csv",
      `external_id,first_name,last_name,email,balance
l1,Nina,Blanc,nina.l@example.org,20.00
`,
    );
    const history = write("l-history.csv", "date,from,to,amount,memo\n2024-05-01,,l1,20.00,Change\n");
    imported(await runImport(t.db, { members, history, by: null }));
    const more = write(
      "l-members-2.csv",
      `external_id,first_name,last_name,email,balance
l1,Nina,Blanc,nina.l@example.org,15.00
l2,Omar,Diallo,omar.l@example.org,5.00
`,
    );
    // Without references, a line is known by what it says: the first line is the same line.
    const moreHistory = write("l-history-2.csv", "date,from,to,amount,memo\n2024-05-01,,l1,20.00,Change\n2024-05-02,l1,l2,5.00,Gift\n");
    const out = await runImport(t.db, { members: more, history: moreHistory, by: null });
    // Nina was imported before: a new line of hers would change the balance she has here now.
    expect(out.kind).toBe("refused");
    expect(out.kind === "refused" && out.problems[0]).toMatchObject({
      line: 3,
      value: "l1",
      message: expect.stringContaining("member l1 was imported before"),
    });
    expect(await balanceOf("omar.l@example.org")).toBeNull();

    const third = write(
      "l-members-3.csv",
      "external_id,first_name,last_name,email,balance\nl1,Nina,Blanc,nina.l@example.org,20.00\nl3,Rose,Vidal,rose.l@example.org,8.00\n",
    );
    const thirdHistory = write("l-history-3.csv", "date,from,to,amount,memo\n2024-05-01,,l1,20.00,Change\n2024-05-03,,l3,8.00,Change\n");
    const added = imported(await runImport(t.db, { members: third, history: thirdHistory, by: null }));
    expect(added).toMatchObject({ members: 1, alreadyImported: 1, movements: 1, skippedLines: 1 });
    expect(await balanceOf("rose.l@example.org")).toBe("800");
    expect(await balanceOf("nina.l@example.org")).toBe("2000");
  });

  it("refuses a reference imported before for another movement, naming the line; nothing is written", async () => {
    const members = write("k-members.csv", "external_id,first_name,last_name,email,balance\nk1,Kim,Nguyen,kim.k@example.org,3.00\n");
    // T1 was Léa's top-up of 100.00 in the history above.
    const history = write("k-history.csv", "date,from,to,amount,memo,reference\n2024-06-01,,k1,3.00,Change,T1\n");
    const before = await footprint();
    const out = await runImport(t.db, { members, history, by: null });
    expect(out.kind === "refused" && out.problems).toEqual([
      { file: history, line: 2, column: null, value: "T1", message: "reference T1 was imported before for another movement" },
    ]);
    expect(await footprint()).toEqual(before);
  });

  it("brings an existing member's balance and history into their account (same e-mail), leaving their name as it is", async () => {
    const { seedMember } = await import("./helpers");
    await seedMember(t.db, { email: "eve.x@example.org", firstName: "Eve", lastName: "Existing" });
    const members = write("x-members.csv", "external_id,first_name,last_name,email,balance\nx1,Evelyne,Autre,eve.x@example.org,42.00\n");
    const out = imported(await runImport(t.db, { members, by: null }));
    expect(out).toMatchObject({ members: 0, linked: 1, movements: 1, total: "42.00" });
    expect(await balanceOf("eve.x@example.org")).toBe("4200");
    const { rows } = await t.db.query<{ name: string }>("SELECT name FROM members WHERE email = 'eve.x@example.org'");
    expect(rows[0]!.name).toBe("Eve Existing");
  });
});

describe("an import refused", () => {
  const cases: { name: string; members: string; history?: string; problem: Record<string, unknown> }[] = [
    {
      name: "an amount that is not one",
      members: "external_id,first_name,last_name,email,balance\nr1,Ann,Lee,r1@example.org,12.5.0\n",
      problem: { line: 2, column: "balance", value: "12.5.0" },
    },
    {
      name: "an e-mail that is not one",
      members: "external_id,first_name,last_name,email,balance\nr2,Ann,Lee,not-an-email,1\n",
      problem: { line: 2, column: "email", value: "not-an-email" },
    },
    {
      name: "a custodial balance below 0",
      members: "external_id,first_name,last_name,email,balance\nr3,Ann,Lee,r3@example.org,-4\n",
      problem: { line: 2, column: "balance", value: "-4.00", message: expect.stringContaining("cannot be below 0") },
    },
    {
      name: "a history that disagrees with a closing balance",
      members: "external_id,first_name,last_name,email,balance\nr4,Ann,Lee,r4@example.org,10.00\n",
      history: "date,from,to,amount\n2024-01-02,,r4,9.00\n",
      problem: { line: 2, column: "balance", value: "10.00", message: "member r4 (Ann Lee): the members file says 10.00, the history adds up to 9.00" },
    },
    {
      name: "a date that is not one",
      members: "external_id,first_name,last_name,email,balance\nr5,Ann,Lee,r5@example.org,1\n",
      history: "date,from,to,amount\n31/02/2024,,r5,1\n",
      problem: { line: 2, column: "date", value: "31/02/2024" },
    },
    {
      name: "a history naming nobody of the members file",
      members: "external_id,first_name,last_name,email,balance\nr6,Ann,Lee,r6@example.org,1\n",
      history: "date,from,to,amount\n2024-01-02,,zz9,1\n",
      problem: { line: 2, column: "to", value: "zz9" },
    },
  ];
  for (const c of cases)
    it(`for ${c.name}: the problem names its file, line, column and value, and nothing is written`, async () => {
      const before = await footprint();
      const members = write(`bad-m-${c.name.length}.csv`, c.members);
      const history = c.history ? write(`bad-h-${c.name.length}.csv`, c.history) : undefined;
      const out = await runImport(t.db, { members, ...(history ? { history } : {}), by: null });
      expect(out.kind).toBe("refused");
      if (out.kind !== "refused") return;
      expect(out.problems[0]).toMatchObject({ file: expect.stringMatching(/bad-[mh]-\d+\.csv$/), ...c.problem });
      expect(await footprint()).toEqual(before);
    });
});

describe("an import killed half-way", () => {
  it("leaves the database as it was (kill -9 while it posts), and imports whole when run again", async () => {
    const gen = path.join(dir, "generated");
    fs.mkdirSync(gen);
    const files = await generateImport(gen, 1000, 30_000, 3);
    const before = await footprint();
    const run = (until?: RegExp) =>
      new Promise<{ code: number | null; signal: string | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/cli/import.ts", "--members", files.members, "--history", files.history], {
          cwd: ROOT,
          env: { ...process.env, DATABASE_URL: t.tdb.url },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        const take = (d: Buffer) => {
          out += d;
          if (until?.test(out) && child.exitCode === null) child.kill("SIGKILL");
        };
        child.stdout.on("data", take);
        child.stderr.on("data", take);
        child.on("exit", (code, signal) => resolve({ code, signal, out }));
      });
    // Members written, the history loaded, the movements being posted: all in the one transaction.
    const killed = await run(/Posting the movements/);
    expect(killed.signal, killed.out).toBe("SIGKILL");
    expect(await footprint()).toEqual(before);

    // Again: it waits for the killed one's transaction to end (the import's lock), then imports it all.
    const again = await run();
    expect(again.code, again.out).toBe(0);
    expect(again.out).toContain("✓ Imported 1000 members");
    const { rows } = await t.db.query<{ c: string }>(
      "SELECT sum(a.balance)::text AS c FROM member_external_ids x JOIN wallets w ON w.member_id = x.member_id JOIN accounts a ON a.wallet_id = w.id WHERE x.external_id LIKE 'M%'",
    );
    expect(BigInt(rows[0]!.c)).toBe(files.total);
    expect((await footprint()).members).toBe(before.members! + 1000);
  }, 120_000);
});
