-- Up Migration

-- A member's mutual-credit account follows its backend's floor and ceiling, unless an
-- administrator gave it limits of its own (`own_limits`, services/payments/limits.ts). The owners
-- may move a backend's bounds past where members stand (services/association/settings.ts): that
-- moves nobody. The account's bound stops at its balance and remembers the backend's as its
-- target; as the member receives (or, for a ceiling, spends) it follows them back towards the
-- target, never letting them go further the other way, and joins it once reached.
ALTER TABLE accounts ADD COLUMN own_limits boolean NOT NULL DEFAULT false;
ALTER TABLE accounts ADD COLUMN floor_target bigint;
ALTER TABLE accounts ADD COLUMN ceiling_target bigint;
ALTER TABLE accounts ADD CHECK (floor_target IS NULL OR floor IS NOT NULL AND floor < floor_target);
ALTER TABLE accounts ADD CHECK (ceiling_target IS NULL OR ceiling IS NOT NULL AND ceiling > ceiling_target);

-- Members' accounts whose bounds already differ from their backend's were given them by an administrator.
UPDATE accounts a SET own_limits = true
FROM wallets w JOIN backends b ON b.id = w.backend_id
WHERE w.id = a.wallet_id AND w.role = 'member' AND a.kind = 'cm'
  AND (a.floor IS DISTINCT FROM b.cm_floor OR a.ceiling IS DISTINCT FROM b.cm_ceiling);

CREATE FUNCTION accounts_bounds_follow() RETURNS trigger LANGUAGE plpgsql AS $$
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
-- Only the few accounts left behind by a change of bounds run it: a payment's others do not.
CREATE TRIGGER accounts_bounds_follow BEFORE UPDATE OF balance ON accounts
  FOR EACH ROW WHEN (NEW.floor_target IS NOT NULL OR NEW.ceiling_target IS NOT NULL)
  EXECUTE FUNCTION accounts_bounds_follow();
