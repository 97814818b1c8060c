import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { booksStatementsCsv, type BooksLabels } from "@mutua/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { books } from "../src/services/board/books";
import { figures } from "../src/services/board/figures";
import { inTransaction } from "../src/db/pool";
import { acceptInvitation, inviteImportedMembers, invitationMail } from "../src/services/members/invitations";
import { previewImport } from "../src/services/import/preview";
import { runImport, type ImportOutcome } from "../src/services/import/write";
import { decideCreation, stagingAccounts } from "../src/services/wallets/staging";
import { getOwnWallet, openCustodialWallet, type BackendRow } from "../src/services/wallets/wallets";
import { createBackend, seedMember } from "./helpers";
import { generateImport } from "./import-generator";
import { importInvariantViolations } from "./import-invariants";
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
  kinds: {
    payment: "Payment",
    topup: "Top-up",
    reconversion: "Reconversion",
    retirement: "Reconversion paid out",
    opening: "Opening balance",
    dues: "Dues",
    settlement: "Settlement",
  },
  issuance: "Association (issuance)",
  safe: "Association (safe)",
  dues: "Association (dues)",
  clearing: (association) => `Clearing with ${association}`,
  settlement: (association) => `Settlement with ${association}`,
  crossingAssociation: "Other association",
  crossingAmount: "Amount in the other currency",
  crossingCurrency: "Other currency",
  crossingRate: "Exchange rate",
  oldReference: "Old reference",
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-import-write-"));
  backend = await createBackend(t.db, { kind: "custodial", symbol: "FLO" });
  await t.db.query("UPDATE association SET currency_id = $1", [backend.currency_id]);
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  // Whatever the imports above wrote or were refused: every movement balanced, none into a frozen wallet.
  expect(await importInvariantViolations(t.db)).toEqual([]);
});

const walletOf = async (email: string) => {
  const { rows } = await t.db.query<{ id: string; status: string; member_id: bigint; held: boolean }>(
    `SELECT w.id, w.status, w.member_id, EXISTS (SELECT 1 FROM import_held_wallets h WHERE h.wallet_id = w.id AND h.released_at IS NULL) AS held
     FROM members m JOIN wallets w ON w.member_id = m.id AND w.backend_id = $2 AND w.status <> 'discarded' WHERE m.email = $1`,
    [email, backend.id],
  );
  return rows[0] ?? null;
};

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
      // Zoé's "board" right is not imported: an owner grants rights from the members' pages.
      { email: "zoe.open@example.org", kind: "opening", recipient_memo: "Solde d'ouverture", figures: false, business: false },
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
      expect.stringMatching(/"2024-03-15 12:00:00","tx_\w+","Top-up","Association \(issuance\)","Change","FLO","100.00","100.00","T1"/),
      expect.stringMatching(/"2024-03-16 14:30:00","tx_\w+","Payment","Marc Petit","Bread","FLO","-12.50","87.50","T2"/),
      expect.stringMatching(/"2024-04-01 12:00:00","tx_\w+","Reconversion","Association \(safe\)","Back to euros","FLO","-10.00","77.50","T3"/),
    ]);
    // The old system's reference of each line is kept whole on its movements (the reconversion's payout too), for the accountant.
    expect(b.movements.filter((m) => m.oldReference !== null).map((m) => [m.kind, m.oldReference])).toEqual([
      ["topup", "T1"],
      ["payment", "T2"],
      ["reconversion", "T3"],
      ["retirement", "T3"],
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
      { file: history, line: 2, column: null, value: "T1", reference: "T1", message: "reference T1 was imported before for another movement" },
    ]);
    expect(await footprint()).toEqual(before);
  });

  it("brings an existing member's balance and history into their account (same e-mail), leaving their name as it is", async () => {
    const eve = await seedMember(t.db, { email: "eve.x@example.org", firstName: "Eve", lastName: "Existing" });
    await t.db.query("UPDATE members SET email_verified_at = now() - interval '1 year' WHERE id = $1", [eve.id]);
    const members = write("x-members.csv", "external_id,first_name,last_name,email,balance\nx1,Evelyne,Autre,eve.x@example.org,42.00\n");
    const out = imported(await runImport(t.db, { members, by: null }));
    // Her address is proven: the balance is hers at once.
    expect(out).toMatchObject({ members: 0, linked: 1, held: 0, movements: 1, total: "42.00" });
    expect(await balanceOf("eve.x@example.org")).toBe("4200");
    expect(await walletOf("eve.x@example.org")).toMatchObject({ status: "active", held: false });
    const { rows } = await t.db.query<{ name: string }>("SELECT name FROM members WHERE email = 'eve.x@example.org'");
    expect(rows[0]!.name).toBe("Eve Existing");
  });
});

describe("an import and the accounts already here", () => {
  it("holds the balance and history of a member whose address was never proven: a pending wallet nobody can use, read or approve, until a link sent to that address is opened", async () => {
    // Somebody signed up with an address of the old system's export and never proved it.
    const stranger = await seedMember(t.db, { email: "victim.u@example.org", firstName: "Not", lastName: "Victim" });
    // …and added a passkey, which would sign them in whatever password the address's owner chooses.
    await t.db.query("INSERT INTO passkeys (credential_id, member_id, public_key) VALUES ('pk-stranger', $1, '\\x00')", [stranger.id]);
    const accountant = await seedMember(t.db, { canValidateAccounts: true });
    const members = write(
      "u-members.csv",
      "external_id,first_name,last_name,email,balance\nu1,Vic,Tim,victim.u@example.org,65.00\nu2,Nel,New,nel.u@example.org,5.00\n",
    );
    const history = write("u-history.csv", "date,from,to,amount,memo,reference\n2024-02-01,,u1,70.00,Change,U1\n2024-02-02,u1,u2,5.00,Rent of the stand,U2\n");

    const preview = await previewImport(t.db, { members, history });
    expect(preview.problems).toEqual([]);
    expect(preview.members.existing).toEqual([
      { line: 2, email: "victim.u@example.org", name: "Not Victim", createdAt: expect.stringMatching(/^\d{4}-/), emailVerified: false },
    ]);

    const out = imported(await runImport(t.db, { members, history, by: null }));
    expect(out).toMatchObject({ members: 1, linked: 1, held: 1, total: "70.00" });
    // The money is in the ledger, balanced, in a wallet that is pending and held.
    expect(await balanceOf("victim.u@example.org")).toBe("6500");
    const held = (await walletOf("victim.u@example.org"))!;
    expect(held).toMatchObject({ status: "pending", held: true });
    // Its member sees neither its balance nor its history; no account administrator can approve it.
    expect(await getOwnWallet(t.db, stranger.id, held.id)).toBeNull();
    expect((await stagingAccounts(t.db)).map((w) => w.walletId)).not.toContain(held.id);
    await expect(decideCreation(t.db, accountant.id, held.id, "active")).rejects.toMatchObject({ code: "not_found" });
    expect((await walletOf("victim.u@example.org"))!.status).toBe("pending");
    // The new member's wallet is theirs as before: nobody signs in to it without their invitation.
    expect(await walletOf("nel.u@example.org")).toMatchObject({ status: "active", held: false });

    // The invitation goes to the address; opening its link (setNewPassword calls acceptInvitation) releases the wallet.
    expect(await inviteImportedMembers(t.db, accountant.id, 600)).toBeGreaterThanOrEqual(2);
    const mail = (await invitationMail(t.db, { publicUrl: "https://w.example", associationName: "Le Florain" }, stranger.id, "en-US"))!;
    expect(mail).toMatchObject({ to: "victim.u@example.org", subject: "Le Florain moves to Mutua: your balance is waiting" });
    // One wallet released: the password-changed mail then says the passkeys went with the hold.
    expect(await inTransaction(t.db, (tx) => acceptInvitation(tx, stranger.id))).toBe(1);
    expect(await walletOf("victim.u@example.org")).toMatchObject({ status: "active", held: false });
    expect(await getOwnWallet(t.db, stranger.id, held.id)).toMatchObject({ id: held.id });
    const { rows: keys } = await t.db.query("SELECT 1 FROM passkeys WHERE member_id = $1", [stranger.id]);
    expect(keys).toEqual([]);
  });

  it("keeps a wallet held when its member changed their address since: a link to the new one proves the new one", async () => {
    const m = await seedMember(t.db, { email: "moved.u@example.org" });
    const members = write("v-members.csv", "external_id,first_name,last_name,email,balance\nv1,Mo,Ved,moved.u@example.org,9.00\n");
    imported(await runImport(t.db, { members, by: null }));
    await t.db.query("UPDATE members SET email = 'elsewhere.u@example.org', email_verified_at = now() WHERE id = $1", [m.id]);
    await inTransaction(t.db, (tx) => acceptInvitation(tx, m.id));
    expect(await walletOf("elsewhere.u@example.org")).toMatchObject({ status: "pending", held: true });
  });

  it("holds an existing member's empty active wallet too (made pending), and gives back a pending request as pending", async () => {
    const active = await seedMember(t.db, { email: "active.u@example.org" });
    const asked = await seedMember(t.db, { email: "asked.u@example.org" });
    await openCustodialWallet(t.db, backend, active.id, "active");
    await openCustodialWallet(t.db, backend, asked.id, "pending");
    const members = write(
      "w-members.csv",
      "external_id,first_name,last_name,email,balance\nw1,Ac,Tive,active.u@example.org,3.00\nw2,As,Ked,asked.u@example.org,4.00\n",
    );
    expect(imported(await runImport(t.db, { members, by: null }))).toMatchObject({ linked: 2, held: 2 });
    expect(await walletOf("active.u@example.org")).toMatchObject({ status: "pending", held: true });
    expect(await walletOf("asked.u@example.org")).toMatchObject({ status: "pending", held: true });
    await inTransaction(t.db, async (tx) => {
      await acceptInvitation(tx, active.id);
      await acceptInvitation(tx, asked.id);
    });
    expect(await walletOf("active.u@example.org")).toMatchObject({ status: "active", held: false });
    // Back in the account administrators' queue, as it was before the import.
    expect(await walletOf("asked.u@example.org")).toMatchObject({ status: "pending", held: false });
    expect(await balanceOf("asked.u@example.org")).toBe("400");
  });

  it("refuses the owner's own line, naming it; nothing is written", async () => {
    const owner = await seedMember(t.db, { email: "owner.o@example.org", canManageAssociation: true, firstName: "Olga", lastName: "Owner" });
    await t.db.query("UPDATE members SET email_verified_at = now() WHERE id = $1", [owner.id]);
    const members = write(
      "o-members.csv",
      "external_id,first_name,last_name,email,balance\nown0,Ann,Other,ann.o@example.org,1.00\nown1,Olga,Owner,owner.o@example.org,1000.00\n",
    );
    const before = await footprint();
    const problem = {
      file: members,
      line: 3,
      value: "owner.o@example.org",
      reference: "own1",
      message: "this is your own account (Olga Owner): an owner does not import money into their own account; another owner can import this line",
    };
    const preview = await previewImport(t.db, { members, by: owner.id });
    expect(preview.problems).toEqual([{ ...problem, column: "email" }]);
    const out = await runImport(t.db, { members, by: owner.id });
    expect(out.kind === "refused" && out.problems).toEqual([{ ...problem, column: "email" }]);
    expect(await footprint()).toEqual(before);
    expect(await balanceOf("owner.o@example.org")).toBeNull();
  });

  it("refuses a line whose existing wallet is frozen, naming it; nothing is written", async () => {
    const frozen = await seedMember(t.db, { email: "frozen.f@example.org", firstName: "Fred", lastName: "Frozen" });
    const admin = await seedMember(t.db, { canValidateAccounts: true });
    await t.db.query("UPDATE members SET email_verified_at = now() WHERE id = $1", [frozen.id]);
    const wallet = await openCustodialWallet(t.db, backend, frozen.id, "active");
    await t.db.query("UPDATE wallets SET frozen_at = now(), frozen_reason = 'Checked by the board', frozen_by = $2 WHERE id = $1", [wallet, admin.id]);
    const members = write("f-members.csv", "external_id,first_name,last_name,email,balance\nf1,Fred,Frozen,frozen.f@example.org,75.00\n");
    const before = await footprint();
    const out = await runImport(t.db, { members, by: null });
    expect(out.kind === "refused" && out.problems).toEqual([
      {
        file: members,
        line: 2,
        column: "email",
        value: "frozen.f@example.org",
        reference: "f1",
        message: `Fred Frozen's wallet on ${backend.id} is frozen: it cannot receive their balance; an account administrator unfreezes it first, or leave them out of the file`,
      },
    ]);
    expect(await footprint()).toEqual(before);
    expect(await balanceOf("frozen.f@example.org")).toBe("0");
  });

  it("imports no rights: a rights column is a notice of the preview, never a right granted", async () => {
    const members = write(
      "g-members.csv",
      'external_id,first_name,last_name,email,balance,rights\ng1,Gil,Grab,gil.g@example.org,1.00,owner\ng2,Guy,Grab,guy.g@example.org,1.00,"accounts,credits,board"\n',
    );
    const preview = await previewImport(t.db, { members });
    expect(preview.problems).toEqual([]);
    expect(preview.members.ignoredRights).toEqual(["rights"]);
    imported(await runImport(t.db, { members, by: null }));
    const { rows } = await t.db.query(
      `SELECT can_validate_accounts OR can_validate_credits OR can_view_figures OR can_manage_association AS any FROM members WHERE email IN ('gil.g@example.org', 'guy.g@example.org')`,
    );
    expect(rows).toEqual([{ any: false }, { any: false }]);
  });

  it("lets one preview or import run at a time: a second one is refused while the first holds the turn", async () => {
    const gen = path.join(dir, "turn");
    fs.mkdirSync(gen);
    const files = await generateImport(gen, 300, 20_000, 7, "T");
    const first = runImport(t.db, { members: files.members, history: files.history, by: null });
    // The turn is in PostgreSQL: wait until the first holds it.
    await expect
      .poll(async () => (await t.db.query("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = $1", [0x6d_69_6d_70])).rowCount, {
        timeout: 10_000,
        interval: 20,
      })
      .toBe(1);
    const small = write("t-members.csv", "external_id,first_name,last_name,email,balance\nt1,Tim,Turn,tim.t@example.org,1.00\n");
    await expect(previewImport(t.db, { members: small })).rejects.toMatchObject({
      code: "state_conflict",
      message: expect.stringMatching(/^An import is already running/),
    });
    await expect(runImport(t.db, { members: small, by: null })).rejects.toMatchObject({ code: "state_conflict" });
    expect(imported(await first)).toMatchObject({ members: 300 });
    // Its turn over, the next one goes.
    expect((await previewImport(t.db, { members: small })).problems).toEqual([]);
  }, 60_000);
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
      name: "a phone the profile would refuse",
      members: 'external_id,first_name,last_name,email,phone,balance\nr7,Ann,Lee,r7@example.org,"<script>alert(1)</script>06 12 34 56 78",1\n',
      problem: { line: 2, column: "phone", value: "<script>alert(1)</script>06 12 34 56 78", message: expect.stringContaining("only digits, spaces") },
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
