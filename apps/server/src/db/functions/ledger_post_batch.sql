-- Group commit: movements that arrive together are posted by one statement, in one
-- transaction, so they share its round trip, its commit and its WAL flush, and a hot account (a
-- shop on market day) is locked once for all of them instead of once each.
--
-- Each item is posted by ledger_post (migration 0016) with its own outcome: a refusal (no
-- balance, a ceiling, an inactive wallet, a key reused for another payment) writes nothing and
-- does not touch its neighbours, which are posted all the same. The items' accounts are all
-- locked first, in id order as ledger_post locks them, so batches and single movements on any
-- number of instances still serialise per account and never deadlock; each ledger_post then
-- finds its locks already held and reads balances that include the batch's earlier items. The
-- members' event sequences are locked next, also in id order, as a single movement's trigger
-- takes them (member_events_of_movement).
--
-- p_items is a JSON array of objects with the arguments of ledger_post: kind, payer, payee,
-- accounts (array of sub-account kinds), amounts (array of decimal strings, cents), senderMemo,
-- recipientMemo, initiatedBy (string or null), key, hash, signedMessage, signature, at (ISO time or
-- null), publicId.
-- The answer has one row per item, `item` being its index in the array (from 0).
CREATE OR REPLACE FUNCTION ledger_post_batch(p_items jsonb) RETURNS TABLE (
  item int,
  outcome text,
  id bigint, public_id text, backend_id text, currency_id text, kind text, payer_wallet_id text, payee_wallet_id text,
  amount bigint, sender_memo text, recipient_memo text, initiated_by bigint, idempotency_key text, request_hash text,
  signed_message text, signature text, created_at timestamptz
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  it jsonb;
  n int;
BEGIN
  PERFORM 1 FROM accounts a
   WHERE (a.wallet_id, a.kind) IN (
     SELECT w.wallet, k.kind
       FROM jsonb_array_elements(p_items) x,
            LATERAL (VALUES (x->>'payer'), (x->>'payee')) w(wallet),
            LATERAL jsonb_array_elements_text(x->'accounts') k(kind)
   )
   ORDER BY a.id FOR UPDATE;
  -- Then the event sequences of the items' members, in id order too: the items' events take
  -- them one movement after another, in no order across movements (member_events_sequence).
  PERFORM 1 FROM member_event_streams s
   WHERE s.member_id IN (
     SELECT w.member_id FROM jsonb_array_elements(p_items) x
       JOIN wallets w ON w.id IN (x->>'payer', x->>'payee')
   )
   ORDER BY s.member_id FOR UPDATE;

  FOR n IN 0 .. jsonb_array_length(p_items) - 1 LOOP
    it := p_items -> n;
    RETURN QUERY SELECT n, r.* FROM ledger_post(
      it->>'kind',
      it->>'payer',
      it->>'payee',
      ARRAY(SELECT jsonb_array_elements_text(it->'accounts')),
      ARRAY(SELECT jsonb_array_elements_text(it->'amounts')::bigint),
      it->>'senderMemo',
      it->>'recipientMemo',
      (it->>'initiatedBy')::bigint,
      it->>'key',
      it->>'hash',
      it->>'signedMessage',
      it->>'signature',
      (it->>'at')::timestamptz,
      it->>'publicId'
    ) r;
  END LOOP;
END $$;
