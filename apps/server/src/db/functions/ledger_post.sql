-- ledger_post (migration 0016) with one more refusal: 'frozen', when either wallet is. A freeze
-- locks the wallet's accounts before it is written (services/payments/freeze.ts), so a movement either
-- committed before it or sees it.
CREATE OR REPLACE FUNCTION ledger_post(
  p_kind text,
  p_payer text,
  p_payee text,
  p_accounts text[],
  p_amounts bigint[],
  p_sender_memo text,
  p_recipient_memo text,
  p_initiated_by bigint,
  p_key text,
  p_hash text,
  p_signed_message text,
  p_signature text,
  p_at timestamptz,
  p_public_id text
) RETURNS TABLE (
  outcome text,
  -- The movement posted, or the one posted before under the same key: the columns of movements, in order.
  id bigint, public_id text, backend_id text, currency_id text, kind text, payer_wallet_id text, payee_wallet_id text,
  amount bigint, sender_memo text, recipient_memo text, initiated_by bigint, idempotency_key text, request_hash text,
  signed_message text, signature text, created_at timestamptz
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  locked accounts[];
  acct accounts;
  src accounts;
  dst accounts;
  existing movements;
  payer record;
  payee record;
  total bigint := 0;
  currency text;
  moved movements;
  i int;
BEGIN
  -- Every account the movement touches, locked in id order: movements on any number of
  -- instances serialise per account and never deadlock; the balances read are the latest.
  SELECT array_agg(a ORDER BY a.id) INTO locked FROM (
    SELECT * FROM accounts WHERE wallet_id IN (p_payer, p_payee) AND kind = ANY (p_accounts) ORDER BY id FOR UPDATE
  ) a;

  -- Under the payer's locks, an earlier request with this key has either committed or not.
  SELECT * INTO existing FROM movements WHERE payer_wallet_id = p_payer AND idempotency_key = p_key;
  IF FOUND THEN
    IF existing.request_hash <> p_hash THEN
      outcome := 'idempotency_conflict'; RETURN NEXT; RETURN;
    END IF;
    -- The columns the function returns, named: movements has more (import_id) that it does not.
    RETURN QUERY SELECT 'replayed'::text, existing.id, existing.public_id, existing.backend_id, existing.currency_id, existing.kind, existing.payer_wallet_id, existing.payee_wallet_id, existing.amount, existing.sender_memo, existing.recipient_memo, existing.initiated_by, existing.idempotency_key, existing.request_hash, existing.signed_message, existing.signature, existing.created_at;
    RETURN;
  END IF;

  SELECT w.id, w.status, w.backend_id, w.frozen_at, b.status AS backend_status INTO payer FROM wallets w JOIN backends b ON b.id = w.backend_id WHERE w.id = p_payer;
  SELECT w.id, w.status, w.backend_id, w.frozen_at INTO payee FROM wallets w WHERE w.id = p_payee;
  IF payer.id IS NULL OR payee.id IS NULL THEN
    outcome := 'not_found'; RETURN NEXT; RETURN;
  END IF;
  IF payer.backend_id <> payee.backend_id THEN
    outcome := 'cannot_send'; RETURN NEXT; RETURN;
  END IF;
  IF payer.backend_status <> 'active' THEN
    outcome := 'backend_unavailable'; RETURN NEXT; RETURN;
  END IF;
  IF payee.status <> 'active' THEN
    outcome := 'target_inactive'; RETURN NEXT; RETURN;
  END IF;
  IF payer.status <> 'active' THEN
    outcome := 'payer_inactive'; RETURN NEXT; RETURN;
  END IF;
  -- A frozen wallet neither sends nor receives; its owner is told why by the app.
  IF payer.frozen_at IS NOT NULL OR payee.frozen_at IS NOT NULL THEN
    outcome := 'frozen'; RETURN NEXT; RETURN;
  END IF;

  -- Each part leaves the payer's sub-account of its kind for the payee's: both must exist, the
  -- payer's stay at or above its floor and the payee's at or below its ceiling.
  FOR i IN 1 .. array_length(p_accounts, 1) LOOP
    src := NULL;
    dst := NULL;
    FOREACH acct IN ARRAY coalesce(locked, '{}') LOOP
      IF acct.kind = p_accounts[i] AND acct.wallet_id = p_payer THEN src := acct; END IF;
      IF acct.kind = p_accounts[i] AND acct.wallet_id = p_payee THEN dst := acct; END IF;
    END LOOP;
    IF src.id IS NULL OR dst.id IS NULL THEN
      outcome := 'cannot_send'; RETURN NEXT; RETURN;
    END IF;
    IF src.floor IS NOT NULL AND src.balance - p_amounts[i] < src.floor THEN
      outcome := 'insufficient_balance'; RETURN NEXT; RETURN;
    END IF;
    IF dst.ceiling IS NOT NULL AND dst.balance + p_amounts[i] > dst.ceiling THEN
      outcome := 'recipient_limit'; RETURN NEXT; RETURN;
    END IF;
    IF currency IS NULL THEN currency := src.currency_id; END IF;
    IF src.currency_id <> currency OR dst.currency_id <> currency THEN
      RAISE EXCEPTION 'ledger_post: one currency per movement';
    END IF;
    total := total + p_amounts[i];
  END LOOP;

  INSERT INTO movements (public_id, backend_id, currency_id, kind, payer_wallet_id, payee_wallet_id, amount, sender_memo,
    recipient_memo, initiated_by, idempotency_key, request_hash, signed_message, signature, created_at)
  VALUES (p_public_id, payer.backend_id, currency, p_kind, p_payer, p_payee, total, p_sender_memo,
    p_recipient_memo, p_initiated_by, p_key, p_hash, p_signed_message, p_signature, coalesce(p_at, now()))
  RETURNING * INTO moved;
  -- Every reconversion is tracked from the moment it exists, whichever path posted it.
  IF p_kind = 'reconversion' THEN
    INSERT INTO reconversions (movement_id, updated_at) VALUES (moved.id, moved.created_at);
  END IF;

  -- The postings, each with the account's balance after it, and the cached balances: the payer's
  -- side first for each part, in the order of the parts (the running balances follow posting ids).
  FOR i IN 1 .. array_length(p_accounts, 1) LOOP
    WITH taken AS (
      UPDATE accounts SET balance = balance - p_amounts[i] WHERE wallet_id = p_payer AND kind = p_accounts[i] RETURNING id, balance
    )
    INSERT INTO postings (movement_id, account_id, amount, balance_after) SELECT moved.id, taken.id, -p_amounts[i], taken.balance FROM taken;
    WITH given AS (
      UPDATE accounts SET balance = balance + p_amounts[i] WHERE wallet_id = p_payee AND kind = p_accounts[i] RETURNING id, balance
    )
    INSERT INTO postings (movement_id, account_id, amount, balance_after) SELECT moved.id, given.id, p_amounts[i], given.balance FROM given;
  END LOOP;

  RETURN QUERY SELECT 'posted'::text, moved.id, moved.public_id, moved.backend_id, moved.currency_id, moved.kind, moved.payer_wallet_id, moved.payee_wallet_id, moved.amount, moved.sender_memo, moved.recipient_memo, moved.initiated_by, moved.idempotency_key, moved.request_hash, moved.signed_message, moved.signature, moved.created_at;
END $$;
