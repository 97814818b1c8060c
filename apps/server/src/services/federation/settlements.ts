import { randomBytes } from "node:crypto";
import type { z } from "zod";
import {
  ErrorCode,
  formatCents,
  M,
  parseApiAmount,
  settlementAmounts,
  settlementDirection,
  settlementFits,
  settlementNote,
  SM,
  valuesAgree,
  type FederationSettlement,
  type FederationSettlementDirection,
  type FederationSettlementState,
} from "@mutua/domain";
import type { schemas } from "@mutua/domain/api/schemas";
import { inTransaction, type Db, type Queryable, type Tx } from "../../db/pool";
import { audit } from "../platform/audit";
import { invalid, Refusal } from "../platform/errors";
import { callPeer } from "./peer-client";
import type { PeerNet } from "./peer-net";
import { tellOne, toTell, type Teller, type Which } from "./peer-outbox";
import { retried } from "./payments";
import { balanceOf, clearingWallets, details, LINK, lockedSettlement, post, SELECT, type LinkRow, type SettlementRow } from "./settlement-ledger";
import { federationKey } from "./server-key";
import type { Signer } from "./signed-messages";

/**
 * Settling a link (docs/federation.md "Settlement"). What the members of one association paid the
 * other's stays owed between the two: the payer's side's clearing wallets hold it (in its
 * currency), and the payee's side holds as much of that currency (`held_cents`). The two boards
 * settle it in euros, outside Mutua; a settlement records it on both sides, each in its own
 * ledger and currency:
 *
 * - the side that owes (`pay`) moves its clearing wallets toward zero into its issuance wallet: its
 *   currency the other held is redeemed, paid in euros; what it holds of the other's (below zero)
 *   rises by the other amount;
 * - the other side (`receive`) moves its issuance wallet into its clearing wallets, toward zero:
 *   what it issued to its members is now backed by the euros received; what it holds of the first
 *   side's currency falls by the first amount.
 *
 * So each side's clearing balance still equals what the other holds. An owner of either side
 * proposes it; the other side's owners accept it (posted there, in the transaction that records
 * it, and told to the proposer, who then posts its side: it agreed by proposing) or decline it; the
 * proposer may withdraw it while it is not answered, which the other side decides (it may have
 * accepted meanwhile). Every step one side decides alone is saved with a row of federation_outbox
 * and told until acknowledged (peer-outbox.ts); every message is answered the same when told again,
 * and posts once.
 */

type ProposeBody = z.output<typeof schemas.proposeFederationSettlement.body>;
type PeerSettlementBody = z.output<typeof schemas.peerSettlementProposed.body>;
type PeerAcceptedBody = z.output<typeof schemas.peerSettlementAccepted.body>;
type PeerState = z.output<typeof schemas.peerSettlementProposed.response>;

const view = (r: SettlementRow): FederationSettlement => ({
  id: r.public_id,
  linkId: r.link_public_id,
  proposedBy: r.origin,
  direction: r.direction,
  amount: formatCents(r.amount_cents),
  peerAmount: formatCents(r.peer_amount_cents),
  given: r.given,
  note: r.note,
  state: r.state,
  told: r.told,
  createdAt: r.created_at.toISOString(),
  answeredAt: r.answered_at?.toISOString() ?? null,
});

/** How many settlements the console and the figures list at most: the boards act on the newest, and the audit log keeps the rest. */
const LISTED = 200;

/** The settlements of every link (or of one), newest first. */
export async function settlementsOf(db: Queryable, linkId?: bigint): Promise<FederationSettlement[]> {
  const { rows } = await db.query<SettlementRow>(
    `${SELECT} WHERE ($1::bigint IS NULL OR s.link_id = $1) ORDER BY s.created_at DESC, s.id DESC LIMIT ${LISTED}`,
    [linkId ?? null],
  );
  return rows.map(view);
}

async function settlementView(db: Queryable, id: bigint): Promise<FederationSettlement> {
  const { rows } = await db.query<SettlementRow>(`${SELECT} WHERE s.id = $1`, [id]);
  return view(rows[0]!);
}

/**
 * The link an owner acts on, locked: active, or ended (its balance stays for the boards to settle:
 * nothing else crosses it), with both sides' terms counting the same rate.
 */
async function ownersLink(tx: Tx, publicId: string): Promise<LinkRow & { our_value_e4: bigint; their_value_e4: bigint }> {
  const { rows } = await tx.query<LinkRow>(`SELECT ${LINK} FROM federation_links WHERE public_id = $1 FOR UPDATE`, [publicId]);
  const link = rows[0];
  if (!link) throw new Refusal(ErrorCode.notFound, { id: SM.federationLinkNotFound });
  if (link.state !== "active" && link.state !== "ended") throw new Refusal(ErrorCode.stateConflict, { id: SM.federationLinkState });
  return agreeing(link);
}

/**
 * The link a signed message about settlement `settlementId` comes from, locked. The same two
 * servers may have linked again after a link ended, so one key may have an ended link and an
 * active one: the link that holds that settlement, else the one the sender names (`ended`: its
 * newest ended link with this key, else the active one).
 */
async function peersLink(tx: Tx, signer: Signer, settlementId: string, ended = false): Promise<LinkRow> {
  const { rows } = await tx.query<LinkRow>(
    `SELECT ${LINK} FROM federation_links l WHERE peer_key = $1 AND state IN ('active', 'ended')
      ORDER BY EXISTS (SELECT 1 FROM federation_settlements s WHERE s.link_id = l.id AND s.public_id = $2) DESC,
               (state = 'ended') = $3 DESC, id DESC
      LIMIT 1 FOR UPDATE`,
    [signer.publicKey, settlementId, ended],
  );
  if (!rows[0]) throw new Refusal(ErrorCode.notFound, { id: SM.federationNotLinked });
  return rows[0];
}

/** Both sides' values known and counting the same rate: a settlement converts at it, as a payment does. */
function agreeing(link: LinkRow): LinkRow & { our_value_e4: bigint; their_value_e4: bigint } {
  const ours = link.our_value_e4;
  const theirs = link.their_value_e4;
  if (ours === null || theirs === null || link.peer_our_value_e4 === null || link.peer_their_value_e4 === null)
    throw new Refusal(ErrorCode.stateConflict, { id: SM.federationRatesDiffer });
  if (!valuesAgree({ ours, theirs }, { ours: link.peer_our_value_e4, theirs: link.peer_their_value_e4! }))
    throw new Refusal(ErrorCode.stateConflict, { id: SM.federationRatesDiffer });
  return { ...link, our_value_e4: ours, their_value_e4: theirs };
}

const notFound = () => new Refusal(ErrorCode.notFound, { id: SM.federationSettlementNotFound });
const answered = () => new Refusal(ErrorCode.stateConflict, { id: SM.federationSettlementAnswered });

/** A decision of this side's owners, saved: then told to the other side at once (and again until it answers), and answered as it stands then. */
async function decided(net: PeerNet, db: Db, saved: { id: bigint; linkId: bigint }): Promise<FederationSettlement> {
  await tellSettlement(net, db, { linkId: saved.linkId, kind: "settlement", subject: String(saved.id) });
  return settlementView(db, saved.id);
}

/**
 * An owner proposes to settle the link: `amount` in this side's currency or the other's, the other
 * converted at the link's terms. Refused when the two sides count different rates, when nothing is
 * owed either way, when it would take what is owed past zero, or while another settlement of the
 * link waits for its answer. Saved, then told to the other side.
 */
export async function proposeSettlement(net: PeerNet, db: Db, memberId: bigint, linkId: string, body: ProposeBody): Promise<FederationSettlement> {
  const note = settlementNote(body.note);
  if (note === null) throw invalid({ note: { id: SM.federationSettlementNote } });
  const cents = parseApiAmount(body.amount);
  if (cents === null || cents <= 0n) throw invalid({ amount: { id: SM.federationSettlementAmount } });
  const saved = await retried(() =>
    inTransaction(db, async (tx) => {
      const link = await ownersLink(tx, linkId);
      const open = await tx.query("SELECT 1 FROM federation_settlements WHERE link_id = $1 AND state IN ('proposed', 'withdrawing') LIMIT 1", [link.id]);
      if (open.rowCount) throw new Refusal(ErrorCode.stateConflict, { id: SM.federationSettlementOpen });
      const { amount, peerAmount } = settlementAmounts(cents, body.currency, { ours: link.our_value_e4, theirs: link.their_value_e4 });
      // So little that it is no cent in the other currency.
      if (amount <= 0n || peerAmount <= 0n) throw invalid({ amount: { id: SM.federationSettlementAmount } });
      const balance = balanceOf(link, await clearingWallets(tx, link.id));
      const direction = settlementDirection(balance);
      if (!direction) throw new Refusal(ErrorCode.stateConflict, { id: SM.federationSettlementNothing });
      if (!settlementFits(balance, direction, amount, peerAmount)) throw new Refusal(ErrorCode.stateConflict, { id: SM.federationSettlementPastDebt });
      const { rows } = await tx.query<SettlementRow>(
        `INSERT INTO federation_settlements (public_id, link_id, origin, direction, amount_cents, peer_amount_cents, given, our_value_e4, their_value_e4,
           note, state, told, proposed_by)
         VALUES ($1, $2, 'us', $3, $4, $5, $6, $7, $8, $9, 'proposed', false, $10) RETURNING *`,
        [
          `fs_${randomBytes(16).toString("base64url")}`,
          link.id,
          direction,
          amount,
          peerAmount,
          body.currency,
          link.our_value_e4,
          link.their_value_e4,
          note,
          memberId,
        ],
      );
      const row = rows[0]!;
      await toTell(tx, link.id, "settlement", String(row.id));
      await audit(tx, memberId, "federation.settlement_proposed", link.public_id, details(link, row));
      return { id: row.id, linkId: link.id };
    }),
  );
  return decided(net, db, saved);
}

/**
 * An owner accepts the other side's proposal: checked again now, under the link's lock (the same
 * rate, still fitting what is owed: payments the other way may have brought it down), then posted
 * here and recorded in one transaction, with the row that tells the proposer. Refused, nothing is
 * posted on either side, and the proposal stays for the owners to decline.
 */
export async function acceptSettlement(net: PeerNet, db: Db, memberId: bigint, linkId: string, settlementId: string): Promise<FederationSettlement> {
  const saved = await retried(() =>
    inTransaction(db, async (tx) => {
      const link = await ownersLink(tx, linkId);
      const row = await lockedSettlement(tx, link.id, settlementId, "them");
      if (!row) throw notFound();
      if (row.state !== "proposed") throw answered();
      const given = row.given === "ours" ? row.amount_cents : row.peer_amount_cents;
      const now = settlementAmounts(given, row.given, { ours: link.our_value_e4, theirs: link.their_value_e4 });
      if (now.amount !== row.amount_cents || now.peerAmount !== row.peer_amount_cents)
        throw new Refusal(ErrorCode.stateConflict, { id: SM.federationSettlementRateChanged });
      const wallets = await clearingWallets(tx, link.id);
      if (!settlementFits(balanceOf(link, wallets), row.direction, row.amount_cents, row.peer_amount_cents))
        throw new Refusal(ErrorCode.stateConflict, { id: SM.federationSettlementNoLongerFits });
      const transactions = await post(tx, link, row, wallets, memberId);
      await tx.query(
        `UPDATE federation_settlements SET state = 'accepted', told = false, answered_by = $2, answered_at = now(), posted_at = now(),
           our_value_e4 = $3, their_value_e4 = $4, updated_at = now()
         WHERE id = $1`,
        [row.id, memberId, link.our_value_e4, link.their_value_e4],
      );
      await toTell(tx, link.id, "settlement", String(row.id));
      await audit(tx, memberId, "federation.settlement_accepted", link.public_id, { ...details(link, row), transactions });
      return { id: row.id, linkId: link.id };
    }),
  );
  return decided(net, db, saved);
}

/** An owner declines the other side's proposal: nothing is posted; the proposer is told. */
export async function declineSettlement(net: PeerNet, db: Db, memberId: bigint, linkId: string, settlementId: string): Promise<FederationSettlement> {
  const saved = await inTransaction(db, async (tx) => {
    const link = await linkForAnswer(tx, linkId);
    const row = await lockedSettlement(tx, link.id, settlementId, "them");
    if (!row) throw notFound();
    if (row.state !== "proposed") throw answered();
    await tx.query(
      "UPDATE federation_settlements SET state = 'declined', told = false, answered_by = $2, answered_at = now(), updated_at = now() WHERE id = $1",
      [row.id, memberId],
    );
    await toTell(tx, link.id, "settlement", String(row.id));
    await audit(tx, memberId, "federation.settlement_declined", link.public_id, details(link, row));
    return { id: row.id, linkId: link.id };
  });
  return decided(net, db, saved);
}

/**
 * This side's owner withdraws its proposal, not answered yet. The other side decides whether it
 * is withdrawn: it may have accepted it meanwhile (then this side posts it, as when told of the
 * acceptance) or declined it. Until it answers, the proposal stands as `withdrawing`, and the other
 * side is told again and again; asked again meanwhile, the withdrawal is answered as it stands.
 */
export async function withdrawSettlement(net: PeerNet, db: Db, memberId: bigint, linkId: string, settlementId: string): Promise<FederationSettlement> {
  const saved = await inTransaction(db, async (tx) => {
    const link = await linkForAnswer(tx, linkId);
    const row = await lockedSettlement(tx, link.id, settlementId, "us");
    if (!row) throw notFound();
    if (row.state === "withdrawing") return { id: row.id, linkId: link.id };
    if (row.state !== "proposed") throw answered();
    await tx.query(
      "UPDATE federation_settlements SET state = 'withdrawing', told = false, answered_by = $2, answered_at = now(), updated_at = now() WHERE id = $1",
      [row.id, memberId],
    );
    await toTell(tx, link.id, "settlement", String(row.id));
    await audit(tx, memberId, "federation.settlement_withdrawn", link.public_id, details(link, row));
    return { id: row.id, linkId: link.id };
  });
  return decided(net, db, saved);
}

/** The link of a settlement an owner declines or withdraws: it must exist; whatever its terms, nothing is converted or posted. */
async function linkForAnswer(tx: Tx, publicId: string): Promise<LinkRow> {
  const { rows } = await tx.query<LinkRow>(`SELECT ${LINK} FROM federation_links WHERE public_id = $1 FOR UPDATE`, [publicId]);
  if (!rows[0]) throw new Refusal(ErrorCode.notFound, { id: SM.federationLinkNotFound });
  return rows[0];
}

/** A proposal's amounts from the other side's message, in this side's terms: `amount` in this side's currency. */
function proposalOf(body: PeerSettlementBody) {
  const theirs = parseApiAmount(body.amount);
  const ours = parseApiAmount(body.peerAmount);
  if (theirs === null || ours === null || theirs <= 0n || ours <= 0n) throw new Refusal(ErrorCode.validation, { id: SM.federationSettlementAmount });
  const note = settlementNote(body.note);
  if (note === null) throw new Refusal(ErrorCode.validation, { id: SM.federationSettlementNote });
  return {
    direction: (body.proposerPays ? "receive" : "pay") as FederationSettlementDirection,
    amount: ours,
    peerAmount: theirs,
    given: (body.given === "amount" ? "theirs" : "ours") as "ours" | "theirs",
    note,
  };
}

/**
 * The same proposal as the row recorded from an earlier message (its id chosen by the proposer):
 * a message naming it with other amounts, or naming one this side proposed, is refused.
 */
function sameProposal(row: SettlementRow, p: ReturnType<typeof proposalOf>): boolean {
  return (
    row.origin === "them" &&
    row.direction === p.direction &&
    row.amount_cents === p.amount &&
    row.peer_amount_cents === p.peerAmount &&
    row.given === p.given &&
    row.note === p.note
  );
}

const conflict = () => new Refusal(ErrorCode.idempotencyConflict, { id: M.idempotencyConflict });

/**
 * Records a proposal (state `proposed`) or its withdrawal (`withdrawn`) told by the other side,
 * once: told again, it is answered as it stands. Nothing is judged here but the message: the
 * owners read it, and an acceptance checks the rate and what is owed then. A withdrawal of a
 * proposal never heard of is recorded withdrawn, so the proposal, should it arrive late, is not
 * offered to the owners.
 */
async function recordFromPeer(db: Db, signer: Signer, body: PeerSettlementBody, told: "proposed" | "withdrawn"): Promise<PeerState> {
  const p = proposalOf(body);
  return retried(() =>
    inTransaction(db, async (tx) => {
      const link = await peersLink(tx, signer, body.settlementId, body.ended === true);
      const { rows } = await tx.query<SettlementRow>(`${SELECT} WHERE s.link_id = $1 AND s.public_id = $2 FOR UPDATE OF s`, [link.id, body.settlementId]);
      const seen = rows[0];
      if (seen && !sameProposal(seen, p)) throw conflict();
      if (seen && !(told === "withdrawn" && seen.state === "proposed")) return { state: seen.state };
      if (seen) {
        await tx.query("UPDATE federation_settlements SET state = 'withdrawn', answered_at = now(), updated_at = now() WHERE id = $1", [seen.id]);
      } else {
        await tx.query(
          `INSERT INTO federation_settlements (public_id, link_id, origin, direction, amount_cents, peer_amount_cents, given, our_value_e4, their_value_e4,
             note, state, told, answered_at)
           VALUES ($1, $2, 'them', $3, $4, $5, $6, $7, $8, $9, $10, true, CASE WHEN $10 = 'withdrawn' THEN now() END)`,
          [body.settlementId, link.id, p.direction, p.amount, p.peerAmount, p.given, link.our_value_e4, link.their_value_e4, p.note, told],
        );
      }
      await audit(
        tx,
        null,
        told === "proposed" ? "federation.peer_settlement_proposed" : "federation.peer_settlement_withdrawn",
        link.public_id,
        details(link, { public_id: body.settlementId, direction: p.direction, amount_cents: p.amount, peer_amount_cents: p.peerAmount, note: p.note }),
      );
      return { state: told };
    }),
  );
}

/** The other side's owners propose a settlement. */
export const settlementProposedByPeer = (db: Db, signer: Signer, body: PeerSettlementBody) => recordFromPeer(db, signer, body, "proposed");

/** The other side's owners withdrew their proposal. */
export const settlementWithdrawnByPeer = (db: Db, signer: Signer, body: PeerSettlementBody) => recordFromPeer(db, signer, body, "withdrawn");

/**
 * The proposer's side posts the settlement the other side accepted and posted: this side agreed
 * to it by proposing, so it posts what was agreed without judging it again, once (the same message
 * again is answered from the row). Its withdrawal, if its owners asked for one, came too late.
 */
async function postAccepted(tx: Tx, link: LinkRow, row: SettlementRow): Promise<void> {
  const transactions = await post(tx, link, row, await clearingWallets(tx, link.id), null);
  await tx.query(
    `UPDATE federation_settlements SET state = 'accepted', told = true, answered_at = now(), posted_at = now(),
       our_value_e4 = coalesce($2, our_value_e4), their_value_e4 = coalesce($3, their_value_e4), updated_at = now()
     WHERE id = $1`,
    [row.id, link.our_value_e4, link.their_value_e4],
  );
  await audit(tx, null, "federation.peer_settlement_accepted", link.public_id, { ...details(link, row), transactions });
}

/** The other side's owners accepted this side's proposal, and posted it there: this side posts it too. */
export async function settlementAcceptedByPeer(db: Db, signer: Signer, body: PeerAcceptedBody): Promise<PeerState> {
  return retried(() =>
    inTransaction(db, async (tx) => {
      const link = await peersLink(tx, signer, body.settlementId);
      const row = await lockedSettlement(tx, link.id, body.settlementId, "us");
      if (!row) throw notFound();
      // Their amount is in their currency: this side's other amount.
      if (body.amount !== formatCents(row.peer_amount_cents) || body.peerAmount !== formatCents(row.amount_cents)) throw conflict();
      if (row.state === "accepted") return { state: row.state };
      if (row.state !== "proposed" && row.state !== "withdrawing") throw answered();
      await postAccepted(tx, link, row);
      return { state: "accepted" as const };
    }),
  );
}

/** The other side's owners declined this side's proposal: nothing is posted on either side. */
export async function settlementDeclinedByPeer(db: Db, signer: Signer, body: { settlementId: string }): Promise<PeerState> {
  return inTransaction(db, async (tx) => {
    const link = await peersLink(tx, signer, body.settlementId);
    const row = await lockedSettlement(tx, link.id, body.settlementId, "us");
    if (!row) throw notFound();
    if (row.state === "accepted") throw answered();
    if (row.state !== "proposed" && row.state !== "withdrawing") return { state: row.state };
    await tx.query("UPDATE federation_settlements SET state = 'declined', told = true, answered_at = now(), updated_at = now() WHERE id = $1", [row.id]);
    await audit(tx, null, "federation.peer_settlement_declined", link.public_id, details(link, row));
    return { state: "declined" as const };
  });
}

/** A proposal as its proposer's side tells it (and its withdrawal): its amounts from the receiver's point of view. */
const told = (r: SettlementRow & { link_state: string }): PeerSettlementBody => ({
  settlementId: r.public_id,
  // Of the link that ended: the other side finds it even if the two linked again since.
  ...(r.link_state === "ended" ? { ended: true } : {}),
  proposerPays: r.direction === "pay",
  amount: formatCents(r.amount_cents),
  peerAmount: formatCents(r.peer_amount_cents),
  given: r.given === "ours" ? "amount" : "peerAmount",
  note: r.note,
});

/**
 * Tells the other side this side's last step on one settlement (peer-outbox.ts claims its row):
 * the proposal, its withdrawal, or the owners' acceptance or refusal; and records its answer. A
 * withdrawal is the other side's to decide: it answers withdrawn, or accepted (this side then posts
 * it) or declined. Changed meanwhile (withdrawn while its proposal was on its way), it is due again.
 */
export const settlementTeller: Teller = async (tx, net, item) => {
  const { rows } = await tx.query<SettlementRow & { link_state: string; peer_url: string; peer_key: Buffer }>(
    `SELECT s.*, l.public_id AS link_public_id, l.state AS link_state, l.peer_url, l.peer_key
       FROM federation_settlements s JOIN federation_links l ON l.id = s.link_id WHERE s.id = $1`,
    [item.subject],
  );
  const r = rows[0];
  if (!r || r.told || (r.link_state !== "active" && r.link_state !== "ended")) return "moot";
  const call = async <K extends "peerSettlementProposed" | "peerSettlementWithdrawn" | "peerSettlementAccepted" | "peerSettlementDeclined">(
    name: K,
    body: Parameters<typeof callPeer<K>>[5],
  ) => callPeer(net, await federationKey(tx), r.peer_url, r.peer_key.toString("base64url"), name, body);
  if (r.origin === "us" && r.state === "withdrawing") {
    const answer = await call("peerSettlementWithdrawn", told(r));
    return recordWithdrawal(tx, r, answer.state);
  }
  if (r.origin === "us" && r.state === "proposed") await call("peerSettlementProposed", told(r));
  else if (r.origin === "them" && r.state === "accepted")
    await call("peerSettlementAccepted", { settlementId: r.public_id, amount: formatCents(r.amount_cents), peerAmount: formatCents(r.peer_amount_cents) });
  else if (r.origin === "them" && r.state === "declined") await call("peerSettlementDeclined", { settlementId: r.public_id });
  else return "moot";
  const { rowCount } = await tx.query("UPDATE federation_settlements SET told = true, updated_at = now() WHERE id = $1 AND state = $2 AND NOT told", [
    r.id,
    r.state,
  ]);
  return rowCount ? "told" : "again";
};

/** What the other side answered to this side's withdrawal, recorded on the link's lock as its messages are. */
async function recordWithdrawal(tx: Tx, r: SettlementRow, answer: FederationSettlementState): Promise<"told" | "again"> {
  const { rows } = await tx.query<LinkRow>(`SELECT ${LINK} FROM federation_links WHERE id = $1 FOR UPDATE`, [r.link_id]);
  const link = rows[0]!;
  const row = await lockedSettlement(tx, link.id, r.public_id, "us");
  if (!row || row.state !== "withdrawing") return "again";
  if (answer === "accepted") {
    // Refused by this side's ledger (a backend in maintenance), it is tried again later, and the
    // claiming transaction, which records the try, must keep nothing of it.
    await tx.query("SAVEPOINT settlement_post");
    try {
      await postAccepted(tx, link, row);
    } catch (e) {
      await tx.query("ROLLBACK TO SAVEPOINT settlement_post");
      throw e;
    }
  } else if (answer === "withdrawn" || answer === "declined")
    await tx.query("UPDATE federation_settlements SET state = $2, told = true, updated_at = now() WHERE id = $1", [row.id, answer]);
  // Any other answer is not one a server of this protocol gives to a withdrawal: not told.
  else throw new Refusal(ErrorCode.unavailable, { id: SM.federationPeerUnverifiable });
  return "told";
}

/** Tells one settlement's news: the first due, or the given settlement's whenever due. */
export const tellSettlement = (net: PeerNet, db: Db, which: Which) => tellOne(net, db, { settlement: settlementTeller }, which);
