import type { z } from "zod";
import { ErrorCode, formatCents, formatUnitValue, SM, unitRate } from "@mutua/domain";
import type { schemas } from "@mutua/domain/api/schemas";
import { inTransaction, type Db } from "../../db/pool";
import { sentCents } from "../payments/payments";
import { Refusal } from "../platform/errors";
import { b64, fulfils } from "./conditions";
import { callPeer, knownRefusal } from "./peer-client";
import { payTo, quoteFrom } from "./peer-batches";
import type { PeerNet } from "./peer-net";
import { postpone, rateChanged, refusalOf, reread, retried, returnHold, type PaymentRow } from "./payments";
import { hopAmounts, holdForward, onwardLinkAndPeer, onwardOf, type ForwardBody } from "./forward-holds";
import { checkedQuote, LINK_COLUMNS, linkAndPeer, usable, withinTrust, type ActiveLink } from "./quotes";
import type { Signer } from "./signed-messages";

/**
 * The association in the middle of a payment through it (docs/federation.md "Through an
 * association both trust"): B, linked with A and with C, forwards A's payment to C's member.
 *
 * For A's server, B is the payee's side; for C's, the payer's. B holds in one transaction (its
 * clearing wallet for A -> its clearing wallet for C, what it holds of A's currency raised, an
 * 'in' row `held` and an 'out' row `prepared`), then asks C, whose member is paid under the
 * payment's condition. C's fulfilment commits B's two rows in one transaction; C's refusal returns
 * B's posting. B is in doubt only between its hold and C's word, and then answers A "pending":
 * its recovery asks C (recovery.ts), never the clock, and A's asks B again.
 */

type PeerQuoteBody = z.output<typeof schemas.peerQuote.body>;
type PeerQuote = z.output<typeof schemas.peerQuote.response>;
type PeerPaid = z.output<typeof schemas.peerPay.response>;

/**
 * A's question, through this side: C's quote (with its condition when A names the payment), the
 * amount at each hop, each rounded once, from the payee back. Nothing is held.
 */
export async function quoteThrough(net: PeerNet, db: Db, signer: Signer, body: PeerQuoteBody & { to: { url: string } }): Promise<PeerQuote> {
  // The link A calls by, and this side's own currency's symbol, by one statement.
  const { rows } = await db.query<ActiveLink & { own_symbol: string | null }>({
    name: "federation-through-from",
    text: `SELECT ${LINK_COLUMNS}, (SELECT c.symbol FROM association x JOIN currencies c ON c.id = x.currency_id) AS own_symbol
      FROM federation_links WHERE peer_key = $1 AND state = 'active'`,
    values: [signer.publicKey],
  });
  const from = usable(rows[0]);
  const { to, at } = await onwardLinkAndPeer(db, from, body.to.url);
  const asked = await quoteFrom(net, at, {
    walletId: body.walletId,
    amount: body.amount,
    ...(body.paymentId ? { paymentId: body.paymentId } : {}),
  });
  const quote = checkedQuote(asked, body.walletId);
  if (quote.amount !== body.amount || (body.paymentId !== undefined && quote.condition === undefined)) {
    throw new Refusal(ErrorCode.unavailable, { id: SM.federationPeerUnverifiable });
  }
  const { here, payer } = hopAmounts(from, to, sentCents(body.amount));
  if (formatCents(here) !== quote.peerAmount) throw rateChanged();
  withinTrust(from, payer);
  return {
    payee: quote.payee,
    amount: quote.amount,
    currencySymbol: to.peer_currency_symbol ?? "",
    peerAmount: formatCents(payer),
    // One unit of C's currency in A's: this side's two conversions in a row.
    rate: unitRate(BigInt(to.their_value_e4) * BigInt(from.our_value_e4), BigInt(to.our_value_e4) * BigInt(from.their_value_e4)),
    ...(quote.condition ? { condition: quote.condition } : {}),
    through: {
      server: { url: to.peer_url, name: to.peer_name ?? "", currencySymbol: to.peer_currency_symbol ?? "", publicKey: b64(to.peer_key) },
      amount: formatCents(here),
      currencySymbol: rows[0]!.own_symbol ?? "",
      values: { via: formatUnitValue(BigInt(to.our_value_e4)), to: formatUnitValue(BigInt(to.their_value_e4)) },
    },
  };
}

/**
 * A's payment through this side: held here (forward-holds.ts: or refused, the refusal recorded as
 * a one-hop payment's is), then sent on to C; answered committed with C's fulfilment, pending while
 * C has not said, or C's refusal (the hold here returned). The same payment sent again is answered
 * from its rows, C asked again while it is held.
 */
export async function forwardPayment(net: PeerNet, db: Db, signer: Signer, body: ForwardBody): Promise<PeerPaid> {
  const outcome = await holdForward(db, signer, body);
  if (outcome instanceof Refusal) throw outcome;
  // Its two rows end together, in one transaction: the one on to C says where both stand.
  const ended = outcome.state === "held" ? await settleForward(net, db, await onwardOf(db, outcome), "pay", await payerOf(db, outcome)) : outcome;
  if (ended.state === "aborted") throw refusalOf(ended.refusal);
  const answer = { amount: body.amount, payerAmount: body.payerAmount };
  if (ended.state === "committed") return { state: "committed", ...answer, fulfillment: b64(ended.fulfillment!) };
  return { state: "pending", ...answer };
}

/**
 * Brings a payment forwarded to C to its end if C can say: "pay" sends it (A's payment, or A's
 * retry), "ask" only asks (the recovery). C's committed counts only with the fulfilment of the
 * payment's condition.
 */
export async function settleForward(
  net: PeerNet,
  db: Db,
  row: PaymentRow,
  how: "pay" | "ask",
  known?: { held: PaymentRow; payerAssociation: string },
): Promise<PaymentRow> {
  if (row.state !== "prepared") return row;
  const { link: to, at } = await linkAndPeer(db, row.link_id);
  const condition = row.condition!;
  if (how === "pay" && to.state === "active") {
    const held = known?.held ?? (await db.query<PaymentRow>("SELECT * FROM federation_payments WHERE id = $1", [row.forward_of])).rows[0]!;
    const { payerAssociation } = known ?? (await payerOf(db, held));
    try {
      const paid = await payTo(net, at, {
        paymentId: row.public_id,
        walletId: row.peer_wallet_id!,
        amount: formatCents(row.peer_amount_cents!),
        payerAmount: formatCents(row.amount_cents!),
        payer: { name: held.peer_member_name ?? "", association: payerAssociation },
        memo: row.memo,
        condition: b64(condition),
        ...(row.request_public_id ? { requestId: row.request_public_id } : {}),
      });
      const f = fulfils(condition, paid.fulfillment);
      if (paid.state === "committed" && f) return await finishForward(db, row, "committed", null, f);
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
    }
  }
  let state;
  try {
    state = await callPeer(net, at.key, at.url, at.keyId, "peerPaymentState", { paymentId: row.public_id });
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    return postpone(db, row);
  }
  if (state.state === "aborted") return finishForward(db, row, "aborted", knownRefusal(state.reason), null);
  const f = fulfils(condition, state.fulfillment);
  // Committed without the fulfilment is not C's proof that its member was paid: asked again later.
  if (state.state === "committed" && f) return finishForward(db, row, "committed", null, f);
  return postpone(db, row);
}

/** The payment in `held` with the name of the association it came from: its own record, else the link's. */
async function payerOf(db: Db, held: PaymentRow): Promise<{ held: PaymentRow; payerAssociation: string }> {
  if (held.payer_association !== null) return { held, payerAssociation: held.payer_association };
  const { rows } = await db.query<{ peer_name: string | null }>("SELECT peer_name FROM federation_links WHERE id = $1", [held.link_id]);
  return { held, payerAssociation: rows[0]?.peer_name ?? "" };
}

/**
 * Ends both rows of a payment forwarded as C ended it, in one transaction, once: committed (what
 * this side holds of C's currency goes down by C's amount, the posting toward C stays) or aborted
 * (the posting returned, C's clearing -> A's, and what this side holds of A's currency down again).
 */
async function finishForward(db: Db, row: PaymentRow, state: "committed" | "aborted", reason: string | null, f: Buffer | null): Promise<PaymentRow> {
  if (state === "committed") {
    // One statement, so one round trip: both rows, then C's link's, whose holding alone changes
    // (what this side holds of A's currency stays: the payment is made). A's link's row is not
    // taken: the payments A sends on meanwhile do not wait for this one's end.
    const { rows } = await retried(() =>
      db.query<PaymentRow>(
        `WITH onward AS (
           UPDATE federation_payments SET state = 'committed', fulfillment = $2, next_check_at = NULL, updated_at = now()
            WHERE id = $1 AND state = 'prepared' RETURNING *
         ), held AS (
           UPDATE federation_payments h SET state = 'committed', fulfillment = $2, updated_at = now() FROM onward WHERE h.id = onward.forward_of
         ), lowered AS (UPDATE federation_links l SET held_cents = l.held_cents - onward.peer_amount_cents FROM onward WHERE l.id = onward.link_id)
         SELECT * FROM onward`,
        [row.id, f],
      ),
    );
    return rows[0] ?? reread(db, row);
  }
  return retried(() =>
    inTransaction(db, async (tx) => {
      const { rows } = await tx.query<PaymentRow>("SELECT * FROM federation_payments WHERE id = $1 AND state = 'prepared' FOR UPDATE", [row.id]);
      const onward = rows[0];
      if (!onward) return reread(tx, row);
      const held = (await tx.query<PaymentRow>("SELECT * FROM federation_payments WHERE id = $1 FOR UPDATE", [onward.forward_of])).rows[0]!;
      // Both links' rows in one order, as every transaction that takes two of them.
      await tx.query("SELECT 1 FROM federation_links WHERE id IN ($1, $2) ORDER BY id FOR UPDATE", [onward.link_id, held.link_id]);
      // The posting toward C returned, part for part, to the clearing wallet for A.
      const back = await returnHold(tx, { movement_id: held.movement_id, wallet_id: onward.wallet_id, memo: "", public_id: held.public_id });
      await tx.query("UPDATE federation_links SET held_cents = held_cents - $2 WHERE id = $1", [held.link_id, held.peer_amount_cents]);
      await tx.query("UPDATE federation_payments SET state = 'aborted', refusal = $2, updated_at = now() WHERE id = $1", [held.id, reason]);
      return (
        await tx.query<PaymentRow>(
          "UPDATE federation_payments SET state = 'aborted', refusal = $2, return_movement_id = $3, next_check_at = NULL, updated_at = now() WHERE id = $1 RETURNING *",
          [onward.id, reason, back.id],
        )
      ).rows[0]!;
    }),
  );
}
