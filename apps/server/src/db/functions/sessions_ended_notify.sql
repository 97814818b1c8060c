-- A session that ends early (revoked by a logout, a password reset, "sign out everywhere", a
-- removed device login; cut short; deleted) tells every instance, at commit, to look again at the
-- member's open streams: each ends within moments, wherever it is held. The channel is also the one
-- a stream opened beyond the caps notifies with; the payload is the member's id.
CREATE OR REPLACE FUNCTION sessions_ended_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mutua_member_streams', OLD.member_id::text);
  RETURN NULL;
END $$;
