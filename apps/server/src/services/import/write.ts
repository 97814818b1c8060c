import { createHash, randomBytes } from "node:crypto";
import { LIMITS, formatCents, searchKey } from "@mutua/domain";
import type { Db, Tx } from "../../db/pool";
import { audit } from "../platform/audit";
import { hashPassword } from "../members/passwords";
import { holdUnprovenWallets } from "../wallets/held-wallets";
import { readHistoryFile } from "./history-file";
import { inImportTurn, transactionOn } from "./import-lock";
import { inspectImport, sortedMembers, type ExistingMember, type ImportPreview, type PreviewOptions } from "./preview";
import { fullName, type MemberRow } from "./members-file";
import { Problems, type FileProblem } from "./problems";
import { fileName } from "./table";
import { createBusinessStage, stageBusinesses, writeBusinesses } from "./write-businesses";

/**
 * Writes an import (`npm run import`, the owners' console): the members, their wallets, and
 * either their opening balances or the history that builds them, in one transaction. Either all
 * of it commits or none of it: killed at any point, the import leaves the database as it was, and
 * runs whole when started again.
 *
 * The files are checked first (inspectImport, what the preview shows): nothing is written while
 * a problem remains. Both are then read a second time as they stream, a few thousand lines at a
 * time into temporary tables (the members sorted again against the database under the import's
 * turn), and the history posted in date order by a handful of set-based statements: movements,
 * their postings with running balances, the accounts' balances. So 500,000 lines cost a few
 * statements rather than 500,000 calls, and the server holds one batch at a time.
 *
 * Members new to the association get an active wallet: nobody can sign in to their account before
 * opening the invitation sent to their address. A shop gets its business profile, listed at once
 * (write-businesses.ts). A member already here (same e-mail) gets their
 * balance and history in their wallet, made pending and held until their address is proven when
 * it never was (wallets/held-wallets.ts). Rights are never imported.
 *
 * Running the same files again writes nothing: members are known by their external id, movements
 * by their idempotency key (the old system's reference, or a digest of the line); a later file
 * adds only what is new.
 */

export interface ImportOptions extends PreviewOptions {
  /** The owner who runs it from the console; null from the command line. */
  by: bigint | null;
  /** The language of memos the import writes itself ("Opening balance"), for a member who has none. */
  defaultLanguage?: string;
  progress?: (p: ImportProgress) => void;
}

export interface ImportProgress {
  phase: "checking" | "members" | "history" | "posting" | "done";
  /** History lines loaded so far, of `total`. */
  done: number;
  total: number;
}

export type ImportOutcome =
  | { kind: "refused"; preview: ImportPreview; problems: FileProblem[]; problemsOmitted: number }
  | {
      kind: "imported";
      importId: bigint | null;
      preview: ImportPreview;
      /** New members, and existing ones (same e-mail) whose balance and history were brought in. */
      members: number;
      linked: number;
      /** Of the existing ones, those whose address is not proven: their wallet waits for it, pending. */
      held: number;
      alreadyImported: number;
      /** Business profiles made, listed in the directory. */
      businesses: number;
      movements: number;
      /** Lines of the history imported before: left as they were. */
      skippedLines: number;
      total: string;
    };

/** Rows sent to PostgreSQL per statement while loading. */
const BATCH = 5000;

const OPENING_MEMO: Record<string, string> = { "en-US": "Opening balance", "fr-FR": "Solde d'ouverture" };
/** A memo cut to what a movement holds. */
export const memoOf = (s: string) => (s.length <= LIMITS.memo ? s : `${s.slice(0, LIMITS.memo - 1)}…`);

/** Everything in the files was imported before: rolled back, so that not even an empty import is recorded. */
class NothingNew extends Error {
  constructor(
    readonly alreadyImported: number,
    readonly skippedLines: number,
  ) {
    super("nothing new to import");
  }
}

/** A problem found while writing: the transaction is rolled back and the problems reported. */
class Refused extends Error {
  constructor(readonly problems: FileProblem[]) {
    super("import refused");
  }
}

/** Runs an import in the association's import turn (import-lock.ts): one preview or import at a time. */
export async function runImport(db: Db, o: ImportOptions): Promise<ImportOutcome> {
  return inImportTurn(db, o.waitForTurn ?? false, (client) => importOn(client, o));
}

async function importOn(client: Tx, o: ImportOptions): Promise<ImportOutcome> {
  o.progress?.({ phase: "checking", done: 0, total: 0 });
  const inspected = await inspectImport(client, o);
  const { preview } = inspected;
  if (preview.problems.length + preview.problemsOmitted > 0 || !inspected.backend)
    return { kind: "refused", preview, problems: preview.problems, problemsOmitted: preview.problemsOmitted };
  const backend = inspected.backend;
  const total = preview.history?.lines ?? 0;
  // One hash for every imported member: a password nobody knows, as costly to try as a real one.
  const passwordHash = await hashPassword(randomBytes(32).toString("base64"));

  try {
    return await transactionOn(client, async (tx) => {
      const { rows: made } = await tx.query<{ id: bigint }>(
        "INSERT INTO imports (backend_id, by_member, members_file, history_file) VALUES ($1, $2, $3, $4) RETURNING id",
        [backend.id, o.by, fileName(o.members), o.history ? fileName(o.history) : null],
      );
      const importId = made[0]!.id;
      const system = await systemAccounts(tx, backend.id);

      o.progress?.({ phase: "members", done: 0, total });
      // The members are sorted again in the transaction: an import that committed since the check is seen.
      const staged = await stageMembers(tx, o, backend.id, passwordHash);
      const members = await writeMembers(tx, importId, backend.id, backend.currencyId);
      const businesses = await writeBusinesses(tx, o.by);
      await lockExistingWallets(tx, fileName(o.members), backend.id);
      await holdUnprovenWallets(tx, importId);

      let movements: number;
      let skippedLines = 0;
      if (o.history) {
        await stageHistory(tx, o, (done) => o.progress?.({ phase: "history", done, total }));
        o.progress?.({ phase: "posting", done: total, total });
        ({ movements, skipped: skippedLines } = await postHistory(tx, importId, backend.id, backend.currencyId, system, fileName(o.history)));
      } else {
        o.progress?.({ phase: "posting", done: 0, total: 0 });
        movements = await postOpenings(tx, importId, backend.id, backend.currencyId, system, o.defaultLanguage ?? "fr-FR");
      }
      if (members + staged.existing + movements === 0) throw new NothingNew(staged.alreadyImported, skippedLines);
      await checkBounds(tx, fileName(o.members));

      const sum = staged.sum;
      await tx.query("UPDATE imports SET members_count = $2, movements_count = $3, total = $4 WHERE id = $1", [importId, members, movements, sum]);
      const details = {
        backend: backend.id,
        membersFile: fileName(o.members),
        historyFile: o.history ? fileName(o.history) : null,
        members: staged.incoming,
        linked: staged.existing,
        held: staged.held,
        alreadyImported: staged.alreadyImported,
        businesses,
        movements,
        skippedLines,
        total: formatCents(sum),
      };
      await audit(tx, o.by, "import.run", `import:${importId}`, details);
      o.progress?.({ phase: "done", done: total, total });
      return {
        kind: "imported" as const,
        importId,
        preview,
        members: staged.incoming,
        linked: staged.existing,
        held: staged.held,
        alreadyImported: staged.alreadyImported,
        businesses,
        movements,
        skippedLines,
        total: formatCents(sum),
      };
    });
  } catch (e) {
    if (e instanceof Refused) return { kind: "refused", preview, problems: e.problems, problemsOmitted: 0 };
    if (e instanceof NothingNew)
      return {
        kind: "imported",
        importId: null,
        preview,
        members: 0,
        linked: 0,
        held: 0,
        alreadyImported: e.alreadyImported,
        businesses: 0,
        movements: 0,
        skippedLines: e.skippedLines,
        total: formatCents(0n),
      };
    throw e;
  }
}

interface SystemAccounts {
  issuanceWallet: string;
  issuanceAccount: bigint;
  safeWallet: string;
  safeAccount: bigint;
}

/** The backend's issuance and safe accounts, locked: top-ups and payouts wait for the import. */
async function systemAccounts(tx: Tx, backendId: string): Promise<SystemAccounts> {
  const { rows } = await tx.query<{ role: "issuance" | "safe"; wallet_id: string; id: bigint }>(
    `SELECT w.role, a.wallet_id, a.id FROM wallets w JOIN accounts a ON a.wallet_id = w.id
     WHERE w.backend_id = $1 AND w.role IN ('issuance', 'safe') AND a.kind = 'main' ORDER BY a.id FOR UPDATE OF a`,
    [backendId],
  );
  const issuance = rows.find((r) => r.role === "issuance");
  const safe = rows.find((r) => r.role === "safe");
  if (!issuance || !safe) throw new Error(`backend ${backendId} has no issuance or safe wallet`);
  return { issuanceWallet: issuance.wallet_id, issuanceAccount: issuance.id, safeWallet: safe.wallet_id, safeAccount: safe.id };
}

/** What staging the members found: counts, and the sum of the balances brought in. */
interface Staged {
  incoming: number;
  existing: number;
  /** Existing members whose address is not proven: their wallet is held. */
  held: number;
  alreadyImported: number;
  sum: bigint;
}

/**
 * The members to write, in a temporary table, read again from the file and sorted against the
 * database a batch at a time: the new ones with all they are, the existing ones by id, with
 * whether their address is proven and their wallet on the backend. A problem found now (an
 * import or a freeze that committed since the check, a file changed since) refuses the import.
 */
async function stageMembers(tx: Tx, o: ImportOptions, backendId: string, passwordHash: string): Promise<Staged> {
  await tx.query(
    `CREATE TEMP TABLE import_members (
       line int NOT NULL, external_id text NOT NULL, member_id bigint, email text NOT NULL, first_name text NOT NULL, last_name text NOT NULL,
       phone text, language text, balance bigint NOT NULL, business boolean NOT NULL,
       search_text text NOT NULL, name_key text NOT NULL, wallet_id text NOT NULL, password_hash text NOT NULL,
       existing boolean NOT NULL, verified boolean NOT NULL, wallet_status text
     ) ON COMMIT DROP`,
  );
  await createBusinessStage(tx);
  const { file, batches } = await sortedMembers(tx, o, backendId);
  const problems = new Problems(file.file);
  const staged: Staged = { incoming: 0, existing: 0, held: 0, alreadyImported: 0, sum: 0n };
  for await (const batch of batches) {
    for (const p of batch.problems) problems.add(p.line, null, p.email, p.message, p.externalId);
    staged.incoming += batch.incoming.length;
    staged.existing += batch.existing.length;
    staged.held += batch.existing.filter((e) => !e.emailVerified).length;
    staged.alreadyImported += batch.alreadyImported;
    const all: { row: MemberRow; existing: ExistingMember | null }[] = [
      ...batch.incoming.map((row) => ({ row, existing: null })),
      ...batch.existing.map((e) => ({ row: e.row, existing: e })),
    ];
    for (const x of all) staged.sum += x.row.balance;
    if (problems.count > 0 || all.length === 0) continue;
    const col = <T>(f: (x: (typeof all)[number]) => T) => all.map(f);
    await tx.query(
      `INSERT INTO import_members
       SELECT l, x, m, e, f, n, p, g, b, s, st, nk, coalesce(ew, w), $15, m IS NOT NULL, v, es
       FROM unnest($1::int[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::bigint[],
                   $10::boolean[], $11::text[], $12::text[], $13::text[], $14::boolean[], $16::text[], $17::text[])
            AS t(l, x, m, e, f, n, p, g, b, s, st, nk, w, v, ew, es)`,
      [
        col((x) => x.row.line),
        col((x) => x.row.externalId),
        col((x) => x.existing?.memberId ?? null),
        col((x) => x.row.email),
        col((x) => x.row.firstName),
        col((x) => x.row.lastName),
        col((x) => x.row.phone),
        col((x) => x.row.language),
        col((x) => x.row.balance.toString()),
        col((x) => x.row.business),
        col(({ row: r }) => searchKey(`${fullName(r)} ${r.email} ${r.phone ?? ""} ${r.phone?.replace(/\D/g, "") ?? ""}`)),
        col(({ row: r }) => searchKey(fullName(r))),
        col(() => `custodial:${randomBytes(10).toString("hex")}`),
        col((x) => x.existing?.emailVerified ?? true),
        passwordHash,
        col((x) => x.existing?.wallet?.id ?? null),
        col((x) => x.existing?.wallet?.status ?? null),
      ],
    );
    await stageBusinesses(tx, all);
  }
  // Read again since the check: the file must not have changed in between.
  const fileProblems = [...file.problems];
  if (fileProblems.length + file.problemsOmitted + problems.count > 0) throw new Refused([...fileProblems, ...problems.list]);
  return staged;
}

/**
 * New members (never with rights: an owner grants those from the members' pages, where their
 * password is asked again), their external ids, and a wallet with its account for each member who
 * has none on the backend (an existing member may have one, still empty). A wallet made for a
 * member already here whose address is not proven is made pending, and held (wallets/held-wallets.ts).
 * Returns how many members were made.
 */
async function writeMembers(tx: Tx, importId: bigint, backendId: string, currencyId: string): Promise<number> {
  const { rowCount } = await tx.query(
    `WITH made AS (
       INSERT INTO members (email, first_name, last_name, password_hash, phone, language, search_text, name_key, is_business)
       SELECT email, first_name, last_name, password_hash, phone, language, search_text, name_key, business
       FROM import_members WHERE member_id IS NULL ORDER BY line
       RETURNING id, email)
     UPDATE import_members s SET member_id = made.id FROM made WHERE made.email = s.email`,
  );
  await tx.query("INSERT INTO member_external_ids (external_id, member_id, import_id) SELECT external_id, member_id, $1 FROM import_members", [importId]);
  await tx.query(
    `INSERT INTO wallets (id, backend_id, member_id, status)
     SELECT wallet_id, $1, member_id, CASE WHEN existing AND NOT verified THEN 'pending' ELSE 'active' END FROM import_members s
     WHERE NOT EXISTS (SELECT 1 FROM wallets w WHERE w.id = s.wallet_id) ORDER BY line`,
    [backendId],
  );
  await tx.query(
    `INSERT INTO accounts (wallet_id, currency_id, kind, floor)
     SELECT wallet_id, $1, 'main', 0 FROM import_members s
     WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.wallet_id = s.wallet_id AND a.kind = 'main') ORDER BY line`,
    [currencyId],
  );
  return rowCount ?? 0;
}

/**
 * Locks the accounts of the existing members' wallets, in id order as movements and freezes do,
 * then looks at them again: a wallet frozen, or one that has moved money, since they were sorted
 * refuses the import. From here until the commit, neither can happen.
 */
async function lockExistingWallets(tx: Tx, file: string, backendId: string): Promise<void> {
  await tx.query("SELECT 1 FROM accounts WHERE wallet_id IN (SELECT wallet_id FROM import_members WHERE existing) ORDER BY id FOR UPDATE");
  const { rows } = await tx.query<{ line: number; email: string; external_id: string; name: string; frozen: boolean }>(
    `SELECT s.line, s.email, s.external_id, m.name, w.frozen_at IS NOT NULL AS frozen FROM import_members s JOIN wallets w ON w.id = s.wallet_id JOIN members m ON m.id = s.member_id
     WHERE s.existing AND (w.frozen_at IS NOT NULL OR EXISTS (SELECT 1 FROM accounts a JOIN postings p ON p.account_id = a.id WHERE a.wallet_id = w.id))
     ORDER BY s.line LIMIT 100`,
  );
  if (rows.length > 0)
    throw new Refused(
      rows.map((r) => ({
        file,
        line: r.line,
        column: null,
        value: r.email,
        reference: r.external_id,
        message: r.frozen
          ? `${r.name}'s wallet on ${backendId} is frozen: it cannot receive their balance; an account administrator unfreezes it first, or leave them out of the file`
          : `${r.name} is already a member and has moved money on ${backendId}: their old balance cannot be added to it; leave them out of the file`,
      })),
    );
}

/** An opening balance for each member with a closing balance above 0, from the issuance wallet. */
async function postOpenings(tx: Tx, importId: bigint, backendId: string, currencyId: string, system: SystemAccounts, defaultLanguage: string): Promise<number> {
  const memo = (lang: string | null) => OPENING_MEMO[lang ?? defaultLanguage] ?? OPENING_MEMO["en-US"]!;
  await tx.query(
    `CREATE TEMP TABLE import_moves ON COMMIT DROP AS
     SELECT row_number() OVER (ORDER BY line) AS seq, line, now() AS at, 'opening'::text AS kind,
       $1::text AS payer, wallet_id AS payee, balance AS amount,
       CASE language WHEN 'en-US' THEN $2 WHEN 'fr-FR' THEN $3 ELSE $4 END AS memo,
       'opening:' || md5(external_id) AS key, NULL::bigint AS reconversion_of, NULL::text AS reference
     FROM import_members WHERE balance > 0
       AND NOT EXISTS (SELECT 1 FROM movements m WHERE m.payer_wallet_id = $1 AND m.idempotency_key = 'opening:' || md5(external_id))`,
    [system.issuanceWallet, memo("en-US"), memo("fr-FR"), memo(null)],
  );
  return postMoves(tx, importId, backendId, currencyId);
}

/** The history's lines, loaded a batch at a time as the file streams. */
async function stageHistory(tx: Tx, o: ImportOptions, loaded: (n: number) => void): Promise<void> {
  await tx.query(
    `CREATE TEMP TABLE import_lines (line int NOT NULL, at timestamptz NOT NULL, from_id text, to_id text, amount bigint NOT NULL,
       memo text NOT NULL, reference text, digest text NOT NULL) ON COMMIT DROP`,
  );
  const file = await readHistoryFile(o.history!, {
    ...(o.mapping?.history ? { mapping: o.mapping.history } : {}),
    ...(o.remembered?.history ? { remembered: o.remembered.history } : {}),
    ...(o.preset?.history ? { preset: o.preset.history } : {}),
    ...(o.timeZone ? { timeZone: o.timeZone } : {}),
  });
  let batch: { line: number; at: string; from: string | null; to: string | null; amount: string; memo: string; reference: string | null; digest: string }[] =
    [];
  let n = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const col = <T>(f: (x: (typeof batch)[number]) => T) => batch.map(f);
    await tx.query(
      `INSERT INTO import_lines SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::text[])`,
      [
        col((r) => r.line),
        col((r) => r.at),
        col((r) => r.from),
        col((r) => r.to),
        col((r) => r.amount),
        col((r) => r.memo),
        col((r) => r.reference),
        col((r) => r.digest),
      ],
    );
    n += batch.length;
    batch = [];
    loaded(n);
  };
  for await (const r of file.rows) {
    const at = r.date.toISOString();
    const amount = r.amount.toString();
    // What makes a line without a reference the same line in a later file: all it says.
    const digest = createHash("sha256")
      .update(JSON.stringify([at, r.from, r.to, amount, r.memo]))
      .digest("base64url");
    batch.push({ line: r.line, at, from: r.from, to: r.to, amount, memo: memoOf(r.memo), reference: r.reference, digest });
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  // Read again since the check: the file must not have changed in between.
  if (file.problems.length + file.problemsOmitted > 0) throw new Refused([...file.problems]);
}

/**
 * The history's lines as movements: a payment between two members, a top-up from the issuance
 * wallet, a reconversion to the safe wallet, paid out at once (a retirement back to issuance, its
 * reconversion marked paid: the old system's payouts are done). A line posted by an earlier
 * import is left; one that would move money of a member imported before is refused (their
 * balance is no longer the old system's).
 */
async function postHistory(
  tx: Tx,
  importId: bigint,
  backendId: string,
  currencyId: string,
  s: SystemAccounts,
  historyName: string,
): Promise<{ movements: number; skipped: number }> {
  // Each line's key: the old system's reference, or its digest and its rank among identical lines.
  await tx.query(
    `CREATE TEMP TABLE import_keyed ON COMMIT DROP AS
     SELECT l.*, 'import:' || CASE WHEN l.reference IS NOT NULL AND length(l.reference) <= 80 THEN 'ref:' || l.reference
                                   WHEN l.reference IS NOT NULL THEN 'ref#' || md5(l.reference)
                                   ELSE l.digest || ':' || row_number() OVER (PARTITION BY l.digest ORDER BY l.line) END AS key,
       pw.id AS payer_member, qw.id AS payee_member, pm.line IS NULL AND l.from_id IS NOT NULL AS payer_old,
       qm.line IS NULL AND l.to_id IS NOT NULL AS payee_old
     FROM import_lines l
     LEFT JOIN member_external_ids px ON px.external_id = l.from_id
     LEFT JOIN wallets pw ON pw.member_id = px.member_id AND pw.backend_id = $1 AND pw.status <> 'discarded'
     LEFT JOIN import_members pm ON pm.external_id = l.from_id
     LEFT JOIN member_external_ids qx ON qx.external_id = l.to_id
     LEFT JOIN wallets qw ON qw.member_id = qx.member_id AND qw.backend_id = $1 AND qw.status <> 'discarded'
     LEFT JOIN import_members qm ON qm.external_id = l.to_id`,
    [backendId],
  );
  // What each line would post, and its request hash (what makes two movements under one key the same).
  await tx.query(
    `CREATE TEMP TABLE import_lined ON COMMIT DROP AS
     SELECT k.*, x.kind, x.payer, x.payee, md5(x.kind || x.payer || x.payee || k.amount::text || k.memo) AS hash
     FROM import_keyed k CROSS JOIN LATERAL (
       SELECT CASE WHEN k.from_id IS NULL THEN 'topup' WHEN k.to_id IS NULL THEN 'reconversion' ELSE 'payment' END AS kind,
              coalesce(k.payer_member, $1) AS payer, coalesce(k.payee_member, $2) AS payee) x`,
    [s.issuanceWallet, s.safeWallet],
  );
  // A reference imported before for another movement: the same old system would not give one twice.
  const { rows: clashes } = await tx.query<{ line: number; reference: string }>(
    `SELECT l.line, l.reference FROM import_lined l JOIN movements m ON m.payer_wallet_id = l.payer AND m.idempotency_key = l.key
     WHERE m.request_hash <> l.hash ORDER BY l.line LIMIT 100`,
  );
  if (clashes.length > 0)
    throw new Refused(
      clashes.map((c) => ({
        file: historyName,
        line: c.line,
        column: null,
        value: c.reference,
        reference: c.reference,
        message: `reference ${c.reference} was imported before for another movement`,
      })),
    );
  await tx.query(
    `CREATE TEMP TABLE import_pending ON COMMIT DROP AS
     SELECT l.* FROM import_lined l
     WHERE NOT EXISTS (SELECT 1 FROM movements m WHERE m.payer_wallet_id = l.payer AND m.idempotency_key = l.key)`,
  );
  const { rows: counts } = await tx.query<{ all: number; pending: number }>(
    "SELECT (SELECT count(*) FROM import_keyed)::int AS all, (SELECT count(*) FROM import_pending)::int AS pending",
  );
  const skipped = counts[0]!.all - counts[0]!.pending;
  const { rows: foreign } = await tx.query<{ line: number; who: string; reference: string | null }>(
    `SELECT line, CASE WHEN payer_old THEN from_id ELSE to_id END AS who, reference FROM import_pending WHERE payer_old OR payee_old ORDER BY line LIMIT 100`,
  );
  if (foreign.length > 0)
    throw new Refused(
      foreign.map((f) => ({
        file: historyName,
        line: f.line,
        column: null,
        value: f.who,
        reference: f.reference,
        message: `member ${f.who} was imported before: a new line of their history would change the balance they have here now`,
      })),
    );
  await tx.query(
    `CREATE TEMP TABLE import_moves ON COMMIT DROP AS
     SELECT row_number() OVER (ORDER BY at, line, part) AS seq, line, at, kind, payer, payee, amount, memo, key, reconversion_of, reference
     FROM (
       SELECT line, at, 0 AS part, kind, payer, payee, amount, memo, key, NULL::text AS reconversion_of, reference
       FROM import_pending
       UNION ALL
       SELECT line, at, 1, 'retirement', $2, $1, amount, memo, key || ':paid', key, reference FROM import_pending WHERE to_id IS NULL
     ) x`,
    [s.issuanceWallet, s.safeWallet],
  );
  const movements = await postMoves(tx, importId, backendId, currencyId);
  // The old system's payouts are done: each reconversion is paid by its retirement.
  await tx.query(
    `INSERT INTO reconversions (movement_id, status, updated_at, retirement_movement_id)
     SELECT r.id, 'paid', t.created_at, t.id
     FROM import_moves x JOIN import_moves y ON y.key = x.reconversion_of AND y.kind = 'reconversion'
     JOIN movements t ON t.payer_wallet_id = x.payer AND t.idempotency_key = x.key
     JOIN movements r ON r.payer_wallet_id = y.payer AND r.idempotency_key = y.key
     WHERE x.kind = 'retirement'`,
  );
  return { movements, skipped };
}

/**
 * Posts the staged movements (import_moves, in `seq` order): the movements, each account's
 * postings with its running balance (its balance before the import plus the sum so far, in the
 * order the postings are written, which is the accounts' own order), then the balances.
 */
async function postMoves(tx: Tx, importId: bigint, backendId: string, currencyId: string): Promise<number> {
  const { rowCount } = await tx.query(
    `INSERT INTO movements (public_id, backend_id, currency_id, kind, payer_wallet_id, payee_wallet_id, amount, sender_memo, recipient_memo,
                            idempotency_key, request_hash, created_at, import_id, external_reference)
     SELECT 'tx_' || substr(md5(random()::text || clock_timestamp()::text || seq::text), 1, 24), $1, $2, kind, payer, payee, amount, memo, memo,
            key, md5(kind || payer || payee || amount::text || memo), at, $3, left(reference, 200)
     FROM import_moves ORDER BY seq`,
    [backendId, currencyId, importId],
  );
  await tx.query(
    `INSERT INTO postings (movement_id, account_id, amount, balance_after)
     SELECT movement_id, account_id, amount, base + sum(amount) OVER (PARTITION BY account_id ORDER BY seq, side)
     FROM (
       SELECT x.seq, 0 AS side, m.id AS movement_id, a.id AS account_id, -x.amount AS amount, a.balance AS base
       FROM import_moves x JOIN movements m ON m.payer_wallet_id = x.payer AND m.idempotency_key = x.key
       JOIN accounts a ON a.wallet_id = x.payer AND a.kind = 'main'
       UNION ALL
       SELECT x.seq, 1, m.id, a.id, x.amount, a.balance
       FROM import_moves x JOIN movements m ON m.payer_wallet_id = x.payer AND m.idempotency_key = x.key
       JOIN accounts a ON a.wallet_id = x.payee AND a.kind = 'main'
     ) p ORDER BY seq, side`,
  );
  await tx.query(
    `UPDATE accounts a SET balance = a.balance + d.delta
     FROM (SELECT account_id, sum(amount) AS delta FROM postings WHERE movement_id IN (SELECT id FROM movements WHERE import_id = $1) GROUP BY account_id) d
     WHERE a.id = d.account_id`,
    [importId],
  );
  return rowCount ?? 0;
}

/**
 * No account ends past its floor or ceiling: said of the members file's line, rather than left to
 * the database's check to refuse in words nobody reads.
 */
async function checkBounds(tx: Tx, file: string): Promise<void> {
  const { rows } = await tx.query<{ line: number; external_id: string; balance: string; floor: string | null; ceiling: string | null }>(
    `SELECT s.line, s.external_id, a.balance::text, a.floor::text, a.ceiling::text
     FROM import_members s JOIN accounts a ON a.wallet_id = s.wallet_id
     WHERE (a.floor IS NOT NULL AND a.balance < a.floor) OR (a.ceiling IS NOT NULL AND a.balance > a.ceiling) ORDER BY s.line LIMIT 100`,
  );
  if (rows.length > 0)
    throw new Refused(
      rows.map((r) => ({
        file,
        line: r.line,
        column: null,
        value: formatCents(BigInt(r.balance)),
        reference: r.external_id,
        message:
          r.floor !== null && BigInt(r.balance) < BigInt(r.floor)
            ? `member ${r.external_id} would end below the account's floor of ${formatCents(BigInt(r.floor))}`
            : `member ${r.external_id} would end above the account's ceiling of ${formatCents(BigInt(r.ceiling!))}`,
      })),
    );
}
