-- Up Migration

-- The event streams open on every instance, one row each (services/event-streams.ts): instances
-- share nothing but the database, so this is where a member's streams are counted, whichever
-- instance holds them, and where the oldest beyond the caps is told to close. A row is removed when
-- its stream closes; its instance refreshes `seen_at` at each heartbeat, so the rows of an instance
-- that died without closing them are recognised as stale, ignored, and swept.
CREATE TABLE event_streams (
  -- Drawn in opening order: the oldest streams are the lowest ids.
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  member_id bigint NOT NULL REFERENCES members(id) ON DELETE CASCADE,
  session_hash bytea NOT NULL REFERENCES sessions(token_hash) ON DELETE CASCADE,
  opened_at timestamptz NOT NULL DEFAULT now(),
  seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX event_streams_member ON event_streams(member_id);

-- A session that ends early (revoked by a logout, a password reset, "sign out everywhere", a
-- removed device login; cut short; deleted) tells every instance, at commit, to look again at the
-- member's open streams: each ends within moments, wherever it is held. The channel is also the one
-- a stream opened beyond the caps notifies with; the payload is the member's id.
CREATE FUNCTION sessions_ended_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mutua_member_streams', OLD.member_id::text);
  RETURN NULL;
END $$;
CREATE TRIGGER sessions_ended AFTER UPDATE OF revoked_at, expires_at ON sessions
  FOR EACH ROW WHEN (NEW.revoked_at IS NOT NULL AND OLD.revoked_at IS NULL OR NEW.expires_at < OLD.expires_at)
  EXECUTE FUNCTION sessions_ended_notify();
CREATE TRIGGER sessions_deleted AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION sessions_ended_notify();
