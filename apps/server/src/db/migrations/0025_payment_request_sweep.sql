-- Up Migration

-- Payment requests are capped and swept (services/payment-requests.ts, services/maintenance.ts):
-- each creation counts its wallet's open requests, and every instance deletes those never paid
-- a day after they expired. Both read only the unpaid rows, never a till's years of paid ones.
CREATE INDEX payment_requests_open ON payment_requests (wallet_id) WHERE status = 'open';
CREATE INDEX payment_requests_unpaid_expiry ON payment_requests (expires_at) WHERE status <> 'paid';
