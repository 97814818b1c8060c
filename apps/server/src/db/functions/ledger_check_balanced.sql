-- Double entry, enforced by the database at commit: a movement's postings sum to zero.
CREATE OR REPLACE FUNCTION ledger_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT coalesce(sum(amount), 0) FROM postings WHERE movement_id = NEW.movement_id) <> 0 THEN
    RAISE EXCEPTION 'movement % is not balanced', NEW.movement_id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
