-- Up Migration

-- A member's name as every screen, list and export shows it, computed by the database once
-- instead of being spelt `first_name || ' ' || last_name` in each query that names a member.
ALTER TABLE members ADD COLUMN name text GENERATED ALWAYS AS (first_name || ' ' || last_name) STORED;
