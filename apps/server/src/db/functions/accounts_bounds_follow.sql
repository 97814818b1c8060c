-- A mutual-credit account left past its backend's new bound (migration 0028) follows its member
-- back towards it: the floor rises with what they receive, the ceiling falls with what they
-- spend, never beyond the backend's, and the target is forgotten once reached.
CREATE OR REPLACE FUNCTION accounts_bounds_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.floor_target IS NOT NULL AND NEW.balance > OLD.balance THEN
    NEW.floor := LEAST(NEW.floor_target, NEW.balance);
    IF NEW.floor = NEW.floor_target THEN NEW.floor_target := NULL; END IF;
  END IF;
  IF NEW.ceiling_target IS NOT NULL AND NEW.balance < OLD.balance THEN
    NEW.ceiling := GREATEST(NEW.ceiling_target, NEW.balance);
    IF NEW.ceiling = NEW.ceiling_target THEN NEW.ceiling_target := NULL; END IF;
  END IF;
  RETURN NEW;
END $$;
