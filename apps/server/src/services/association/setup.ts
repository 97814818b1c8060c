import { randomBytes } from "node:crypto";
import { currencySlug, formatCents, type AssociationSetup } from "@mutua/domain";
import { inTransaction, type Db, type Queryable, type Tx } from "../../db/pool";
import type { Settings } from "../../settings";
import { audit } from "../platform/audit";
import type { Mail } from "../platform/mail";
import { writingLanguage } from "../platform/language";
import { accountMail } from "../members/account-mails";
import { createMember } from "../members/members";
import { hashPassword } from "../members/passwords";
import { newToken } from "../members/sessions";
import { ensureSystemWallets, getBackend } from "../wallets/wallets";
import { readAssociation, type Association } from "./association";

/** How long the first administrator's link to choose a password stays valid: a week to read it. */
export const WELCOME_LINK_SECONDS = 7 * 86_400;

export type SetupOutcome =
  /** Made: the first administrator's e-mail is to be sent now that it is committed. */
  | { kind: "created"; summary: string[]; mail: Mail }
  /** The same association was set up already: nothing changed. */
  | { kind: "unchanged"; summary: string[] }
  /**
   * The same association (its currency), set up already, whose settings have changed since (its
   * owners change them in the app): nothing changed; `differences` are the file's lines that no
   * longer hold, as it says them.
   */
  | { kind: "changedSince"; summary: string[]; differences: string[] }
  /** Another association (or members made otherwise) is there: nothing changed. */
  | { kind: "exists"; summary: string[] };

/**
 * Starts an association on an empty database, in one transaction: its currency, its backends and
 * their system wallets, its row, and its first administrator with every right, who gets a
 * single-use link to choose a password (none is ever typed into a shell). Interrupted, it leaves
 * nothing. Two setups at once are one after the other (an advisory lock); a database that has an
 * association already is described and left alone. The administrator's mail is in the
 * association's default language (config.json's `locales.defaultLanguage`): nobody has said theirs yet.
 */
export async function setUpAssociation(db: Db, s: Pick<Settings, "publicUrl">, input: AssociationSetup, defaultLanguage: string): Promise<SetupOutcome> {
  return inTransaction(db, async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('mutua:setup'))");
    const existing = await readAssociation(tx);
    if (existing) {
      const summary = await describeAssociation(tx, existing);
      if (await sameAnswers(tx, existing, input)) return { kind: "unchanged", summary };
      // Its currency is the association's identity (names and limits are the owners' to change).
      if (existing.currency.id !== currencySlug(input.currency.name)) return { kind: "exists", summary };
      const admin = await tx.query("SELECT 1 FROM members WHERE email = $1", [input.administrator.email]);
      // Amounts are compared in the symbol the currency has now: a new symbol is one difference, not one per backend.
      const inSymbolNow = describeSetup(input, existing.currency.symbol);
      const differences = describeSetup(input).filter(
        (l, i) => !summary.includes(l) && !summary.includes(inSymbolNow[i]!) && !(l.startsWith("First administrator:") && admin.rowCount === 1),
      );
      return { kind: "changedSince", summary, differences };
    }
    const { rows } = await tx.query<{ currencies: number; members: number }>(
      "SELECT (SELECT count(*)::int FROM currencies) AS currencies, (SELECT count(*)::int FROM members) AS members",
    );
    if (rows[0]!.currencies > 0 || rows[0]!.members > 0) {
      // Made before setup existed: `npm run serve` adopts it at its first start.
      return {
        kind: "exists",
        summary: [`This database already holds ${rows[0]!.currencies} currencies and ${rows[0]!.members} members, made without setup.`],
      };
    }
    return create(tx, s, input, defaultLanguage);
  });
}

async function create(tx: Tx, s: Pick<Settings, "publicUrl">, input: AssociationSetup, defaultLanguage: string): Promise<SetupOutcome> {
  const slug = currencySlug(input.currency.name);
  await tx.query("INSERT INTO currencies (id, name, symbol) VALUES ($1, $2, $3)", [slug, input.currency.name, input.currency.symbol]);
  const { custodial, ledger } = input.backends;
  if (custodial) {
    await tx.query(
      `INSERT INTO backends (id, kind, name, currency_id, cm_floor, cm_ceiling, min_credit_amount, max_credit_amount)
       VALUES ($1, 'custodial', $2, $2, 0, NULL, $3, $4)`,
      [`custodial:${slug}`, slug, custodial.topUpMin, custodial.topUpMax],
    );
  }
  if (ledger) {
    await tx.query(
      `INSERT INTO backends (id, kind, name, currency_id, cm_floor, cm_ceiling, min_credit_amount, max_credit_amount)
       VALUES ($1, 'ledger', $2, $2, $3, $4, $5, $6)`,
      [`ledger:${slug}`, slug, ledger.floor, ledger.ceiling, ledger.topUpMin, ledger.topUpMax],
    );
  }
  for (const kind of ["custodial", "ledger"] as const) {
    const backend = input.backends[kind] ? await getBackend(tx, `${kind}:${slug}`) : null;
    if (backend) await ensureSystemWallets(tx, backend);
  }
  await tx.query(
    `INSERT INTO association (name, currency_id, bank_iban, bank_bic, bank_holder, topups_enabled, reconversions_enabled)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [input.association.name, slug, input.bank.iban, input.bank.bic, input.bank.holder || input.association.name, input.topUps, input.reconversions],
  );
  const admin = input.administrator;
  const adminId = await createMember(tx, {
    email: admin.email,
    firstName: admin.firstName,
    lastName: admin.lastName,
    // A password nobody knows, until the administrator chooses theirs from the link.
    passwordHash: await hashPassword(randomBytes(32).toString("base64")),
    canValidateAccounts: true,
    canValidateCredits: true,
    canViewFigures: true,
    canManageAssociation: true,
  });
  const { token, hash } = newToken();
  // A link to choose a first password: its page and its aftermath say so (no "password changed").
  await tx.query("INSERT INTO password_resets (token_hash, member_id, expires_at, first_password) VALUES ($1, $2, now() + make_interval(secs => $3), true)", [
    hash,
    adminId,
    WELCOME_LINK_SECONDS,
  ]);
  // Run from the command line, by whoever runs the server: no member did it (the administrator
  // it names did not exist until now), and the console says it came from the server's operator.
  await audit(tx, null, "association.setup", "association", {
    by: "npm run setup",
    name: input.association.name,
    currency: { name: input.currency.name, symbol: input.currency.symbol },
    backends: Object.keys(input.backends).filter((k) => input.backends[k as "custodial" | "ledger"]),
  });
  const link = `${s.publicUrl}/reset-password?token=${token}`;
  const created = await readAssociation(tx);
  return {
    kind: "created",
    summary: await describeAssociation(tx, created!),
    mail: accountMail(writingLanguage(null, defaultLanguage), admin.email, admin.firstName, {
      kind: "welcome",
      association: input.association.name,
      days: WELCOME_LINK_SECONDS / 86_400,
      link,
      publicUrl: s.publicUrl,
      email: admin.email,
    }),
  };
}

/** What is there, in an operator's words: the association, its currency and backends, its owners. */
export async function describeAssociation(tx: Queryable, a: Association): Promise<string[]> {
  const backends = await tx.query<{
    id: string;
    kind: string;
    cm_floor: bigint;
    cm_ceiling: bigint | null;
    min_credit_amount: bigint | null;
    max_credit_amount: bigint | null;
  }>("SELECT * FROM backends WHERE currency_id = $1 ORDER BY id", [a.currency.id]);
  const owners = await tx.query<{ name: string; email: string }>("SELECT name, email FROM members WHERE can_manage_association ORDER BY id");
  const members = await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM members");
  const sym = a.currency.symbol;
  return [
    `Association: ${a.name}`,
    `Currency: ${a.currency.name} (${sym})`,
    ...backends.rows.map(
      (b) =>
        `Backend ${b.id}: ` +
        (b.kind === "ledger"
          ? `mutual credit from ${formatCents(b.cm_floor)} ${sym}${b.cm_ceiling === null ? ", no ceiling" : ` to ${formatCents(b.cm_ceiling)} ${sym}`}; `
          : "") +
        `top-ups from ${b.min_credit_amount === null ? "any amount" : `${formatCents(b.min_credit_amount)} ${sym}`} to ${b.max_credit_amount === null ? "any amount" : `${formatCents(b.max_credit_amount)} ${sym}`}`,
    ),
    `Top-ups ${a.topUps ? "on" : "off"}, reconversions ${a.reconversions ? "on" : "off"}`,
    bankLine(a.bank.iban, a.bank.bic, a.bank.holder),
    `Owners: ${owners.rows.map((o) => `${o.name} <${o.email}>`).join(", ") || "none"}; ${members.rows[0]!.n} ${members.rows[0]!.n === 1 ? "member" : "members"} in all`,
  ];
}

const bankLine = (iban: string, bic: string, holder: string) => `Bank account: IBAN ${iban || "none"}, BIC ${bic || "none"}, holder ${holder}`;

/**
 * Every choice of a setup, one line each, in describeAssociation's words: the terminal's recap
 * before "Set it up now?", and what a setup file says that an association may no longer hold
 * (`amountSymbol`: the symbol its amounts are written with).
 */
export function describeSetup(input: AssociationSetup, amountSymbol = input.currency.symbol): string[] {
  const sym = amountSymbol;
  const slug = currencySlug(input.currency.name);
  const topUps = (b: { topUpMin: bigint; topUpMax: bigint }) => `top-ups from ${formatCents(b.topUpMin)} ${sym} to ${formatCents(b.topUpMax)} ${sym}`;
  const { custodial, ledger } = input.backends;
  return [
    `Association: ${input.association.name}`,
    `Currency: ${input.currency.name} (${input.currency.symbol})`,
    ...(custodial ? [`Backend custodial:${slug}: ${topUps(custodial)}`] : []),
    ...(ledger
      ? [
          `Backend ledger:${slug}: mutual credit from ${formatCents(ledger.floor)} ${sym}${ledger.ceiling === null ? ", no ceiling" : ` to ${formatCents(ledger.ceiling)} ${sym}`}; ${topUps(ledger)}`,
        ]
      : []),
    `Top-ups ${input.topUps ? "on" : "off"}, reconversions ${input.reconversions ? "on" : "off"}`,
    bankLine(input.bank.iban, input.bank.bic, input.bank.holder || input.association.name),
    `First administrator: ${input.administrator.firstName} ${input.administrator.lastName} <${input.administrator.email}>`,
  ];
}

/** Whether `input` is what set this association up (run again with the same answers). */
async function sameAnswers(tx: Tx, a: Association, input: AssociationSetup): Promise<boolean> {
  const slug = currencySlug(input.currency.name);
  if (a.name !== input.association.name || a.currency.id !== slug || a.currency.name !== input.currency.name || a.currency.symbol !== input.currency.symbol)
    return false;
  if (a.topUps !== input.topUps || a.reconversions !== input.reconversions) return false;
  if (a.bank.iban !== input.bank.iban || a.bank.bic !== input.bank.bic || a.bank.holder !== (input.bank.holder || input.association.name)) return false;
  const { rows } = await tx.query<{ id: string; cm_floor: bigint; cm_ceiling: bigint | null; min_credit_amount: bigint; max_credit_amount: bigint }>(
    "SELECT * FROM backends WHERE currency_id = $1",
    [slug],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  if (byId.size !== Object.values(input.backends).filter(Boolean).length) return false;
  const c = input.backends.custodial;
  const custodial = byId.get(`custodial:${slug}`);
  if (c && !(custodial && custodial.min_credit_amount === c.topUpMin && custodial.max_credit_amount === c.topUpMax)) return false;
  const l = input.backends.ledger;
  const ledger = byId.get(`ledger:${slug}`);
  if (
    l &&
    !(
      ledger &&
      ledger.cm_floor === l.floor &&
      ledger.cm_ceiling === l.ceiling &&
      ledger.min_credit_amount === l.topUpMin &&
      ledger.max_credit_amount === l.topUpMax
    )
  )
    return false;
  const admin = await tx.query("SELECT 1 FROM members WHERE email = $1", [input.administrator.email]);
  return admin.rowCount === 1;
}
