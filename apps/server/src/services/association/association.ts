import type { AppConfig } from "@mutua/domain";
import type { Queryable } from "../../db/pool";
import type { Settings } from "../../settings";

/** The association as its one row in the database says (written by setup, changed by its owners). */
export interface Association {
  name: string;
  currency: { id: string; name: string; symbol: string };
  bank: { iban: string; bic: string; holder: string };
  topUps: boolean;
  reconversions: boolean;
  /** config.json keys the owners set, over the file's. */
  appSettings: Record<string, unknown>;
  updatedAt: string;
}

interface Row {
  name: string;
  currency_id: string;
  currency_name: string;
  symbol: string;
  bank_iban: string;
  bank_bic: string;
  bank_holder: string;
  topups_enabled: boolean;
  reconversions_enabled: boolean;
  app_settings: Record<string, unknown>;
  updated_at: Date;
}

export async function readAssociation(db: Queryable): Promise<Association | null> {
  const { rows } = await db.query<Row>(`SELECT a.*, c.name AS currency_name, c.symbol FROM association a JOIN currencies c ON c.id = a.currency_id`);
  const r = rows[0];
  if (!r) return null;
  return {
    name: r.name,
    currency: { id: r.currency_id, name: r.currency_name, symbol: r.symbol },
    bank: { iban: r.bank_iban, bic: r.bank_bic, holder: r.bank_holder },
    topUps: r.topups_enabled,
    reconversions: r.reconversions_enabled,
    appSettings: r.app_settings,
    updatedAt: r.updated_at.toISOString(),
  };
}

/**
 * A database set up before associations had their row (by SQL, as the README once said, or by an
 * older demo): its first currency becomes the association's, and the name, bank details and
 * switches are taken once from the environment and config.json that held them then. From then on
 * they are changed from the console. Returns whether it adopted one (nothing to adopt on an empty
 * database, which setup is for).
 */
export async function adoptFromEnvironment(db: Queryable, s: Settings, fileConfig: AppConfig): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO association (name, currency_id, bank_iban, bank_bic, bank_holder, topups_enabled, reconversions_enabled)
     SELECT $1, id, $2, $3, $4, $5, $6 FROM currencies ORDER BY id LIMIT 1
     ON CONFLICT (singleton) DO NOTHING`,
    [s.associationName, s.bank.iban, s.bank.bic, s.bank.holder, !fileConfig.disableTopUp, !fileConfig.disableReconversion],
  );
  return rowCount === 1;
}
