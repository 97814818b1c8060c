import { ErrorCode, M, formatCents, ibanValid, nameProblem, parseApiAmount, setupFields, SM, type Msg, type ResponseOf } from "@mutua/domain";
import type { SaveAssociationSettingsBody } from "@mutua/domain/api/schemas";
import type { z } from "zod";
import { inTransaction, type Db, type Queryable, type Tx } from "../../db/pool";
import { audit } from "../platform/audit";
import { Refusal, invalid } from "../platform/errors";
import { THEME_KEYS, type ThemeKey } from "./theme";
import { logoUrl } from "./logo";
import { readAssociation } from "./association";

type Settings = ResponseOf<"getAssociationSettings">;
type SaveBody = z.output<typeof SaveAssociationSettingsBody>;

interface BackendRow {
  id: string;
  kind: "ledger" | "custodial";
  cm_floor: bigint;
  cm_ceiling: bigint | null;
  min_credit_amount: bigint | null;
  max_credit_amount: bigint | null;
}

const text = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const cents = (c: bigint | null) => (c === null ? null : formatCents(c));

/** The association's settings as its owners see them; null before setup. */
export async function associationSettings(db: Queryable, env: { allowSignup: boolean; allowResetPassword: boolean }): Promise<Settings | null> {
  const a = await readAssociation(db);
  if (!a) return null;
  const backends = await db.query<BackendRow>(
    "SELECT id, kind, cm_floor, cm_ceiling, min_credit_amount, max_credit_amount FROM backends WHERE currency_id = $1 ORDER BY kind DESC, id",
    [a.currency.id],
  );
  const s = a.appSettings;
  const theme = (s.theme ?? {}) as Record<string, unknown>;
  const colour = (key: ThemeKey) => text(theme[THEME_KEYS[key]]);
  return {
    identity: {
      name: a.name,
      theme: { primaryColor: colour("primaryColor"), topBarColor: colour("topBarColor"), topBarTextColor: colour("topBarTextColor") },
      logoUrl: a.logoVersion ? logoUrl(a.logoVersion) : null,
      helpUrl: text(s.helpUrl),
      cguUrl: text(s.cguUrl),
      mapUrl: text(s.mapUrl),
      allowSignup: typeof s.allowSignup === "boolean" ? s.allowSignup : env.allowSignup,
      allowResetPassword: typeof s.allowResetPassword === "boolean" ? s.allowResetPassword : env.allowResetPassword,
    },
    money: {
      currencyName: a.currency.name,
      currencySymbol: a.currency.symbol,
      backends: backends.rows.map((b) => ({
        id: b.id,
        kind: b.kind,
        floor: b.kind === "ledger" ? formatCents(b.cm_floor) : null,
        ceiling: b.kind === "ledger" ? cents(b.cm_ceiling) : null,
        topUpMin: cents(b.min_credit_amount),
        topUpMax: cents(b.max_credit_amount),
      })),
      topUps: a.topUps,
      reconversions: a.reconversions,
      bank: a.bank,
    },
    updatedAt: a.updatedAt,
  };
}

/** The members' mutual-credit accounts of a ledger backend that follow its bounds (no limits of their own from an administrator). */
const FOLLOWING = `FROM accounts a JOIN wallets w ON w.id = a.wallet_id
  WHERE w.backend_id = $1 AND w.role = 'member' AND a.kind = 'cm' AND NOT a.own_limits`;

/**
 * How many members a new floor of a ledger backend would leave below it: those whose mutual
 * credit follows the backend's floor and is already lower. Nobody's balance moves.
 */
export async function floorImpact(db: Queryable, backendId: string, floorText: string): Promise<{ below: number }> {
  const floor = parseApiAmount(floorText);
  const { rows } = await db.query<{ kind: string }>("SELECT kind FROM backends WHERE id = $1", [backendId]);
  const b = rows[0];
  if (!b || b.kind !== "ledger" || floor === null) throw new Refusal(ErrorCode.notFound, { id: M.notFound });
  const { rows: n } = await db.query<{ n: number }>(`SELECT count(DISTINCT w.member_id)::int AS n ${FOLLOWING} AND a.balance < $2`, [backendId, floor]);
  return { below: n[0]!.n };
}

/**
 * Saves the owners' settings at once, from the version they read (refused if someone saved since),
 * in one transaction: the association's row (which tells every instance), the currency's name and
 * symbol, each backend's bounds. A backend's new floor and ceiling apply to its members' mutual
 * credit accounts that follow it: nobody's balance moves; a member already past a new bound keeps
 * their balance and the bound becomes that balance, so they cannot go further. The audit log keeps
 * what changed, before and after.
 */
export async function saveAssociationSettings(db: Db, owner: bigint, body: SaveBody, opts: { transfersNeedIban: boolean }): Promise<void> {
  const fields: Record<string, Msg> = {};
  const problem = (key: string, m: Msg | null) => {
    if (m) fields[key] ??= m;
  };
  const name = body.identity.name.trim();
  problem("identity.name", nameProblem(body.identity.name));
  const currencyName = body.money.currencyName.trim();
  problem("money.currencyName", nameProblem(body.money.currencyName));
  // Setup's rule: a symbol one cannot set up is one the owners cannot change to either.
  const symbolRead = setupFields.currencySymbol.safeParse(body.money.currencySymbol);
  const symbol = symbolRead.data ?? "";
  problem("money.currencySymbol", symbolRead.success ? null : { id: SM.symbolInvalid });
  const iban = body.money.bank.iban.replace(/\s+/g, "").toUpperCase();
  const bic = body.money.bank.bic.replace(/\s+/g, "").toUpperCase();
  const holder = body.money.bank.holder.trim();
  problem(
    "money.bank.iban",
    iban !== "" && !ibanValid(iban) ? { id: SM.ibanInvalid } : opts.transfersNeedIban && body.money.topUps && iban === "" ? { id: SM.ibanNeeded } : null,
  );
  problem("money.bank.bic", bic !== "" && !/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic) ? { id: SM.bicInvalid } : null);
  problem("money.bank.holder", holder === "" ? null : nameProblem(holder));
  const amount = (t: string | null) => (t === null ? null : parseApiAmount(t));
  const bounds = body.money.backends.map((b, i) => {
    const v = { floor: amount(b.floor), ceiling: amount(b.ceiling), min: amount(b.topUpMin), max: amount(b.topUpMax) };
    const at = `money.backends.${i}`;
    problem(`${at}.floor`, v.floor !== null && v.floor > 0n ? { id: SM.floorAboveZero } : null);
    problem(`${at}.ceiling`, v.ceiling !== null && v.floor !== null && v.ceiling < v.floor ? { id: SM.ceilingBelowFloor } : null);
    problem(`${at}.topUpMin`, v.min !== null && v.min <= 0n ? { id: SM.topUpMinAboveZero } : null);
    problem(
      `${at}.topUpMax`,
      v.max !== null && v.max <= 0n ? { id: SM.topUpMinAboveZero } : v.min !== null && v.max !== null && v.max < v.min ? { id: SM.topUpBoundsOrder } : null,
    );
    return { id: b.id, ...v };
  });
  if (Object.keys(fields).length > 0) throw invalid(fields);

  await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ updated_at: Date; currency_id: string }>("SELECT updated_at, currency_id FROM association FOR UPDATE");
    const row = rows[0];
    if (!row) throw new Refusal(ErrorCode.notFound, { id: M.notFound });
    if (row.updated_at.toISOString() !== body.basedOn) throw new Refusal(ErrorCode.stateConflict, { id: SM.settingsChangedMeanwhile });
    const before = await associationSettings(tx, { allowSignup: true, allowResetPassword: true });
    const theme: Record<string, string> = {};
    for (const key of Object.keys(THEME_KEYS) as ThemeKey[]) {
      const v = body.identity.theme[key];
      if (v) theme[THEME_KEYS[key]] = v.toLowerCase();
    }
    // The directory's settings are saved apart (services/shops/categories.ts), and kept here.
    const appSettings = {
      theme,
      ...(body.identity.helpUrl ? { helpUrl: body.identity.helpUrl } : {}),
      ...(body.identity.cguUrl ? { cguUrl: body.identity.cguUrl } : {}),
      ...(body.identity.mapUrl ? { mapUrl: body.identity.mapUrl } : {}),
      allowSignup: body.identity.allowSignup,
      allowResetPassword: body.identity.allowResetPassword,
    };
    await tx.query(
      `UPDATE association SET name = $1, bank_iban = $2, bank_bic = $3, bank_holder = $4, topups_enabled = $5, reconversions_enabled = $6,
         app_settings = $7::jsonb || jsonb_strip_nulls(jsonb_build_object('directory', app_settings->'directory')), updated_at = clock_timestamp()`,
      [name, iban, bic, holder || name, body.money.topUps, body.money.reconversions, JSON.stringify(appSettings)],
    );
    await tx.query("UPDATE currencies SET name = $2, symbol = $3 WHERE id = $1", [row.currency_id, currencyName, symbol]);
    for (const b of bounds) await saveBackend(tx, row.currency_id, b);
    const after = await associationSettings(tx, { allowSignup: true, allowResetPassword: true });
    const changes = changed(before!, after!);
    if (Object.keys(changes.before).length > 0) await audit(tx, owner, "association.settings_changed", "association", changes);
  });
}

async function saveBackend(
  tx: Tx,
  currencyId: string,
  b: { id: string; floor: bigint | null; ceiling: bigint | null; min: bigint | null; max: bigint | null },
) {
  const { rows } = await tx.query<BackendRow>("SELECT * FROM backends WHERE id = $1 AND currency_id = $2 FOR UPDATE", [b.id, currencyId]);
  const old = rows[0];
  if (!old) throw invalid({ "money.backends": { id: M.invalidRequest } });
  const floor = old.kind === "ledger" ? (b.floor ?? 0n) : old.cm_floor;
  const ceiling = old.kind === "ledger" ? b.ceiling : old.cm_ceiling;
  await tx.query("UPDATE backends SET cm_floor = $2, cm_ceiling = $3, min_credit_amount = $4, max_credit_amount = $5 WHERE id = $1", [
    b.id,
    floor,
    ceiling,
    b.min,
    b.max,
  ]);
  if (old.kind !== "ledger") return;
  // The members' accounts that follow the backend take its new bounds, locked in the ledger's
  // order (by id) so that a payment posting meanwhile waits rather than deadlocks. Whoever already
  // stands past a new bound keeps their balance: their bound stops there, with the backend's as
  // its target, which it follows them back to (migration 0028's trigger).
  if (floor === old.cm_floor && ceiling === old.cm_ceiling) return;
  await tx.query(`SELECT a.id ${FOLLOWING} ORDER BY a.id FOR UPDATE OF a`, [b.id]);
  await tx.query(
    `UPDATE accounts a SET
       floor = LEAST($2::bigint, a.balance),
       floor_target = CASE WHEN a.balance < $2::bigint THEN $2::bigint END,
       ceiling = CASE WHEN $3::bigint IS NULL THEN NULL ELSE GREATEST($3::bigint, a.balance) END,
       ceiling_target = CASE WHEN a.balance > $3::bigint THEN $3::bigint END
     FROM wallets w WHERE w.id = a.wallet_id AND w.backend_id = $1 AND w.role = 'member' AND a.kind = 'cm' AND NOT a.own_limits`,
    [b.id, floor, ceiling],
  );
}

/**
 * The settings that differ, before and after, by their path ("money.currencySymbol"); a backend's
 * by its id ("money.backends.ledger:florain.floor"), which says which one it is, where its place in
 * the list would not.
 */
function changed(before: Settings, after: Settings): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const byId = (x: Settings) => ({ ...x, money: { ...x.money, backends: Object.fromEntries(x.money.backends.map((b) => [b.id, b])) } });
  before = byId(before) as unknown as Settings;
  after = byId(after) as unknown as Settings;
  const out = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> };
  const walk = (a: unknown, b: unknown, at: string) => {
    if (at === "updatedAt") return;
    if (a && b && typeof a === "object" && typeof b === "object") {
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
        walk((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], at ? `${at}.${k}` : k);
      return;
    }
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      out.before[at] = a ?? null;
      out.after[at] = b ?? null;
    }
  };
  walk(before, after, "");
  return out;
}
