/**
 * The name a member reads for the other side of a movement with a clearing wallet (a payment
 * across a link): the other association's member and their association, "Alice Martin
 * (Association A)"; paid through an association both trust, the association at the end (the payee's, or the
 * payer's). SQL, for the views that name counterparties (history, events, the till):
 * `movement` is the movement's id, `wallet` the counterparty wallet's alias.
 */
export const crossPartyName = (movement: string, wallet: string) => `CASE WHEN ${wallet}.role = 'clearing' THEN (
    SELECT fp.peer_member_name || ' (' || coalesce(fp.route_name, fp.payer_association, fl.peer_name, '') || ')' FROM federation_payments fp JOIN federation_links fl ON fl.id = fp.link_id
     WHERE (fp.movement_id = ${movement} OR fp.return_movement_id = ${movement}) AND fp.peer_member_name IS NOT NULL LIMIT 1) END`;

/**
 * A payment across, as a member's history shows it beside its own amount: the amount in the other
 * currency, the values both sides counted, and where the payment stands (pending while the payer's
 * side does not know the other's answer, paid, or returned: the hold and its return of a payment
 * the other side did not make), as JSON; through an association both trust, the amount where the
 * payment ended and the two hops' values multiplied (their ratio is the rate paid) (null for any other movement). SQL, as crossPartyName.
 */
export const crossingOf = (movement: string, wallet: string) => `CASE WHEN ${wallet}.role = 'clearing' THEN (
    SELECT json_build_object('amount', coalesce(fp.route_amount_cents, fp.peer_amount_cents)::text,
        'currency', coalesce(fp.route_currency_symbol, fl.peer_currency_symbol, ''),
        'ours', (fp.our_value_e4 * coalesce(fp.route_via_value_e4, 1))::text, 'theirs', (fp.their_value_e4 * coalesce(fp.route_to_value_e4, 1))::text,
        'state', CASE fp.state WHEN 'prepared' THEN 'pending' WHEN 'committed' THEN 'paid' ELSE 'returned' END)
      FROM federation_payments fp JOIN federation_links fl ON fl.id = fp.link_id
     WHERE (fp.movement_id = ${movement} OR fp.return_movement_id = ${movement}) AND fp.peer_amount_cents IS NOT NULL LIMIT 1) END`;

/**
 * Whether a movement gives a member back the money held for a payment across that was not made
 * (refused, or ended by the owners): SQL, as crossPartyName. Its member event is said as a payment
 * not made, never as money received.
 */
export const returnsHold = (movement: string) => `EXISTS (SELECT 1 FROM federation_payments fp WHERE fp.return_movement_id = ${movement})`;
