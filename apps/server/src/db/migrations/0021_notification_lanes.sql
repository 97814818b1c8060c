-- Up Migration

-- The notification worker's lanes (services/notification-worker.ts): e-mails and pushes are claimed
-- apart, several at once, so that a silent push service never holds back a member's e-mail, and
-- one member's devices never hold back everyone's pushes.

-- When the row was claimed for its current attempt, cleared when the attempt ends: a push claimed
-- and whose claim still runs (`next_attempt_at` ahead) is in flight, and a member has only so many
-- in flight across every instance.
ALTER TABLE notification_deliveries ADD COLUMN claimed_at timestamptz;
-- Each lane claims its own due rows, oldest first.
CREATE INDEX notification_deliveries_lane ON notification_deliveries (channel, next_attempt_at) WHERE sent_at IS NULL AND gave_up_at IS NULL;
-- A member's pushes still to send, by device: what is in flight for them is counted at each claim.
CREATE INDEX notification_deliveries_pending_push ON notification_deliveries (subscription_id)
  WHERE sent_at IS NULL AND gave_up_at IS NULL AND subscription_id IS NOT NULL;

-- A device whose push service keeps failing (silent, refusing): its failures in a row, and until
-- when nothing is sent to it. A success clears both; too many failures in a row drop the device.
ALTER TABLE push_subscriptions
  ADD COLUMN failures integer NOT NULL DEFAULT 0,
  ADD COLUMN paused_until timestamptz;
