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
  /** A digest of the uploaded logo (its address changes with it), or null. */
  logoVersion: string | null;
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
  logo_version: string | null;
  updated_at: Date;
}

export async function readAssociation(db: Queryable): Promise<Association | null> {
  // Not the logo's bytes: a digest of them names its version in config.json.
  const { rows } = await db.query<Row>(
    `SELECT a.name, a.currency_id, a.bank_iban, a.bank_bic, a.bank_holder, a.topups_enabled, a.reconversions_enabled, a.app_settings,
       CASE WHEN a.logo IS NULL THEN NULL ELSE md5(a.logo) END AS logo_version, a.updated_at, c.name AS currency_name, c.symbol
     FROM association a JOIN currencies c ON c.id = a.currency_id`,
  );
  const r = rows[0];
  if (!r) return null;
  return {
    name: r.name,
    currency: { id: r.currency_id, name: r.currency_name, symbol: r.symbol },
    bank: { iban: r.bank_iban, bic: r.bank_bic, holder: r.bank_holder },
    topUps: r.topups_enabled,
    reconversions: r.reconversions_enabled,
    appSettings: r.app_settings,
    logoVersion: r.logo_version,
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
