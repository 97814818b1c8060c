-- A new member's sequence of events (migration 0030), there before their first event, so that a
-- transaction can lock several members' rows in one order before it writes their events.
CREATE OR REPLACE FUNCTION member_event_streams_of_member() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO member_event_streams (member_id) VALUES (NEW.id);
  RETURN NULL;
END $$;
