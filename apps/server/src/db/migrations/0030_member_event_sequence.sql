-- Up Migration

-- A member's events are handed out in the order of a sequence of the member's own, drawn in the
-- event's transaction: the draw updates the member's row of member_event_streams, so a second
-- transaction drawing for the same member waits for the first to end, and the numbers commit in
-- the order they were drawn, without gaps (a rolled-back draw is drawn again). A stream past
-- number n has therefore seen everything that can ever be numbered n or less: it needs to wait for
-- nothing, and for nobody else's transactions. (The writing transaction's id, which ordered them
-- before, made every stream wait for the oldest transaction of the whole cluster, anyone's.)
CREATE TABLE member_event_streams (
  member_id bigint PRIMARY KEY REFERENCES members(id),
  -- The number of the member's latest event.
  seq bigint NOT NULL DEFAULT 0
);

ALTER TABLE member_events ADD COLUMN seq bigint;
UPDATE member_events e SET seq = n.seq
  FROM (SELECT id, row_number() OVER (PARTITION BY member_id ORDER BY xid, id) AS seq FROM member_events) n
 WHERE n.id = e.id;
ALTER TABLE member_events ALTER COLUMN seq SET NOT NULL;
INSERT INTO member_event_streams (member_id, seq)
SELECT m.id, coalesce(max(e.seq), 0) FROM members m LEFT JOIN member_events e ON e.member_id = m.id GROUP BY m.id;

DROP INDEX member_events_stream;
ALTER TABLE member_events DROP COLUMN xid;
CREATE UNIQUE INDEX member_events_stream ON member_events (member_id, seq);

-- Every member has their row from the start, so that a transaction can lock the rows of several
-- members in one order (ledger_post_batch) before any event is written.
CREATE FUNCTION member_event_streams_of_member() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO member_event_streams (member_id) VALUES (NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER members_event_streams AFTER INSERT ON members FOR EACH ROW EXECUTE FUNCTION member_event_streams_of_member();

CREATE FUNCTION member_events_sequence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE member_event_streams SET seq = seq + 1 WHERE member_id = NEW.member_id RETURNING seq INTO NEW.seq;
  RETURN NEW;
END $$;
CREATE TRIGGER member_events_sequence BEFORE INSERT ON member_events FOR EACH ROW EXECUTE FUNCTION member_events_sequence();
