-- A change of the association's row (setup, the owners' settings) tells every instance, at
-- commit, to read it again (services/association/live.ts): none serves an old name or switch.
CREATE OR REPLACE FUNCTION association_changed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mutua_association', '');
  RETURN NULL;
END $$;
