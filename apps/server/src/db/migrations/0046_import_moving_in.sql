-- Up Migration

-- A shop has one name (its sign), not a first and a last one: a member who is a business may keep
-- it whole in first_name with an empty last name, and is named by it alone everywhere.
ALTER TABLE members DROP CONSTRAINT members_last_name_check;
ALTER TABLE members ADD CONSTRAINT members_last_name_check CHECK (btrim(last_name) <> '' OR (is_business AND last_name = ''));
ALTER TABLE members DROP COLUMN name;
ALTER TABLE members ADD COLUMN name text GENERATED ALWAYS AS (CASE WHEN last_name = '' THEN first_name ELSE first_name || ' ' || last_name END) STORED;

-- The old system's own reference of an imported movement (its transaction number), kept as it was
-- written so that an accountant finds the line of the old books in Mutua's: the idempotency key
-- holds it only shortened or hashed.
ALTER TABLE movements ADD COLUMN external_reference text CHECK (char_length(external_reference) <= 200);

-- The columns an owner matched to Mutua's fields in the console for a file no preset reads, per
-- kind of file: offered again for the next file of that kind.
CREATE TABLE import_mappings (
  kind text PRIMARY KEY CHECK (kind IN ('members', 'history')),
  -- {"externalId": ["Identifiant"], "email": ["Courriel"], …}: the headers per field.
  mapping jsonb NOT NULL,
  updated_by bigint REFERENCES members(id),
  updated_at timestamptz NOT NULL DEFAULT now()
);
