-- Up Migration

-- The association itself, one row: written by `npm run setup` (services/association/setup.ts)
-- and changed from the owners' settings screen, read live by every instance. Before it, its name,
-- bank details and switches were environment variables and a JSON file: a database that has a
-- currency but no row here is adopted from them at the first start (services/association).
CREATE TABLE association (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  currency_id text NOT NULL REFERENCES currencies(id),
  bank_iban text NOT NULL DEFAULT '',
  bank_bic text NOT NULL DEFAULT '',
  bank_holder text NOT NULL DEFAULT '',
  topups_enabled boolean NOT NULL DEFAULT true,
  reconversions_enabled boolean NOT NULL DEFAULT true,
  -- The app's config.json keys the owners set (theme, logo, links, sign-up and reset switches),
  -- over the file's defaults.
  app_settings jsonb NOT NULL DEFAULT '{}',
  -- The owners' logo (PNG, or SVG sanitised at upload), served at /association/logo.
  logo bytea CHECK (octet_length(logo) <= 262144),
  logo_type text CHECK (logo_type IN ('image/png', 'image/svg+xml')),
  CHECK ((logo IS NULL) = (logo_type IS NULL)),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Every instance keeps the row in memory and reads it again when it changes: the change tells
-- them itself, in its own transaction (delivered at commit, never for a rollback).
CREATE FUNCTION association_changed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mutua_association', '');
  RETURN NULL;
END $$;
CREATE TRIGGER association_changed AFTER INSERT OR UPDATE OR DELETE ON association FOR EACH STATEMENT EXECUTE FUNCTION association_changed_notify();
