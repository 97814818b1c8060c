import { createHash, randomBytes } from "node:crypto";
import type { z } from "zod";
import {
  ErrorCode,
  formatCents,
  formatUnitValue,
  parseApiAmount,
  parseUnitValue,
  SM,
  valuesAgree,
  type FederationInvitationPreview,
  type FederationLink,
  type FederationLinkBalance,
  type FederationServer,
  type AuditAction,
  type FederationTerms,
  type LinkedAssociation,
} from "@mutua/domain";
import type { schemas } from "@mutua/domain/api/schemas";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import type { Settings } from "../../settings";
import { audit } from "../platform/audit";
import { readAssociation } from "../association/association";
import { Refusal } from "../platform/errors";
import { hit } from "../platform/rate-limit";
import { reachChanged } from "./reach-changed";
import { callPeer, checkedServer, fetchPeerServer, peerBaseUrl, refuseInsecure } from "./peer-client";
import type { PeerNet } from "./peer-net";
import { federationKey, fingerprintOf, signingKeyFor } from "./server-key";
import { rememberNonce, type Signer } from "./signed-messages";

/**
 * Links with other associations' servers, as the owners make them (docs/federation.md):
 * an owner of A invites, an owner of B accepts with the code (B tells A, signed), A's owner
 * confirms (A tells B, signed). Each side keeps its own terms for the other and what the other
 * told it of theirs. Every step, on either side, is in that side's audit log.
 */

const INVITATION_PREFIX = "MUTUA-LINK:";

export interface LinkRow {
  public_id: string;
  role: "inviter" | "invitee";
  state: "invited" | "accepted" | "active" | "replaced" | "ended";
  peer_url: string | null;
  peer_name: string | null;
  peer_currency_name: string | null;
  peer_currency_symbol: string | null;
  peer_key: Buffer | null;
  our_value_e4: string | null;
  their_value_e4: string | null;
  trust_limit_cents: string | null;
  enabled: boolean | null;
  peer_our_value_e4: string | null;
  peer_their_value_e4: string | null;
  peer_trust_limit_cents: string | null;
  peer_enabled: boolean | null;
  /** This side's terms' number, the last the other side acknowledged, and the last of the other side's recorded (bigints, as text). */
  terms_version: string;
  terms_told_version: string;
  peer_terms_version: string;
  /** This side forwards the payments arriving over this link (forwarding.ts), and the last number of the peer's lists of what it reaches. */
  forward: boolean;
  peer_routes_version: string;
  created_at: Date;
  /** Ended: when, by which side's owners, and (ended here) when the other side acknowledged it. */
  ended_at: Date | null;
  ended_by: "us" | "them" | null;
  ended_told_at: Date | null;
  /** The other server moved: its address before, and when it told. */
  peer_previous_url: string | null;
  peer_moved_at: Date | null;
}

export const COLUMNS = `public_id, role, state, peer_url, peer_name, peer_currency_name, peer_currency_symbol, peer_key,
  our_value_e4, their_value_e4, trust_limit_cents, enabled, peer_our_value_e4, peer_their_value_e4, peer_trust_limit_cents, peer_enabled,
  terms_version, terms_told_version, peer_terms_version, forward, peer_routes_version, created_at, ended_at, ended_by, ended_told_at, peer_previous_url, peer_moved_at`;

/**
 * The states of a link that is alive: being made, or active. A key is unique among these (an
 * index holds it): an ended or replaced link keeps its key beside a newer link's, so that its
 * server may still ask about its payments in doubt, and the same two servers may link again.
 */
export const LIVE_STATES = "('invited', 'accepted', 'active')";

/** Terms as stored: values in ten-thousandths, the limit in cents. */
interface StoredTerms {
  ours: bigint;
  theirs: bigint;
  limit: bigint;
  enabled: boolean;
}

/** Terms as the contract carries them, checked (the schema already did) and converted. */
export function storedTerms(t: FederationTerms): StoredTerms {
  const ours = parseUnitValue(t.ourValue);
  const theirs = parseUnitValue(t.theirValue);
  const limit = parseApiAmount(t.trustLimit);
  if (ours === null || theirs === null || limit === null) throw new Refusal(ErrorCode.validation, { id: SM.federationCodeInvalid });
  return { ours, theirs, limit, enabled: t.enabled };
}

export const termsView = (t: StoredTerms): FederationTerms => ({
  ourValue: formatUnitValue(t.ours),
  theirValue: formatUnitValue(t.theirs),
  trustLimit: formatCents(t.limit),
  enabled: t.enabled,
});

export function ourTerms(r: LinkRow): StoredTerms | null {
  return r.our_value_e4 === null
    ? null
    : { ours: BigInt(r.our_value_e4), theirs: BigInt(r.their_value_e4!), limit: BigInt(r.trust_limit_cents!), enabled: r.enabled! };
}

export function peerTerms(r: LinkRow): StoredTerms | null {
  return r.peer_our_value_e4 === null
    ? null
    : { ours: BigInt(r.peer_our_value_e4), theirs: BigInt(r.peer_their_value_e4!), limit: BigInt(r.peer_trust_limit_cents!), enabled: r.peer_enabled! };
}

export function linkView(r: LinkRow): FederationLink {
  const mine = ourTerms(r);
  const theirs = peerTerms(r);
  const key = r.peer_key;
  return {
    id: r.public_id,
    peerUrl: r.peer_url ?? "",
    peer:
      key && r.peer_url
        ? {
            name: r.peer_name ?? "",
            url: r.peer_url,
            currencyName: r.peer_currency_name ?? "",
            currencySymbol: r.peer_currency_symbol ?? "",
            publicKey: key.toString("base64url"),
            fingerprint: createHash("sha256").update(key).digest("hex").slice(0, 32),
          }
        : null,
    role: r.role,
    state: r.state,
    waitingFor: r.state === "active" || r.state === "replaced" || r.state === "ended" ? null : r.state === "accepted" && r.role === "inviter" ? "us" : "them",
    terms: mine && termsView(mine),
    peerTerms: theirs && termsView(theirs),
    ratesAgree: Boolean(mine && theirs && valuesAgree(mine, theirs)),
    termsPending: r.state === "active" && BigInt(r.terms_version) > BigInt(r.terms_told_version),
    forward: r.forward,
    createdAt: r.created_at.toISOString(),
    ended: r.ended_at && r.ended_by ? { at: r.ended_at.toISOString(), by: r.ended_by, told: r.ended_by === "them" || r.ended_told_at !== null } : null,
    moved: r.peer_previous_url && r.peer_moved_at ? { from: r.peer_previous_url, at: r.peer_moved_at.toISOString() } : null,
  };
}

/** This server as it describes itself at its well-known address. */
export async function describeServer(db: Queryable, settings: Settings): Promise<FederationServer> {
  const association = await readAssociation(db);
  if (!association) throw new Refusal(ErrorCode.notFound, { id: SM.federationNotSetUp });
  const key = await federationKey(db);
  return {
    protocol: "mutua-federation/1",
    name: association.name,
    url: settings.publicUrl,
    currencyName: association.currency.name,
    currencySymbol: association.currency.symbol,
    publicKey: key.keyId,
    fingerprint: key.fingerprint,
  };
}

export async function federationOverview(db: Db, settings: Settings) {
  const server = await describeServer(db, settings);
  const { rows } = await db.query<LinkRow>(`SELECT ${COLUMNS} FROM federation_links ORDER BY created_at DESC, id DESC`);
  return { server, links: rows.map(linkView), balances: await linkBalances(db) };
}

/**
 * What the clearing wallets of link `l` (one per backend, every account summed) owe the other side,
 * in cents of this side's currency: SQL, for a query whose link is `l`.
 */
export const OWED_ON_LINK = `(SELECT coalesce(sum(a.balance), 0) FROM wallets w JOIN accounts a ON a.wallet_id = w.id WHERE w.role = 'clearing' AND w.federation_link_id = l.id)`;

/**
 * Each link's balance past its invitation: what this side holds of the other's currency, and what
 * its clearing wallets (one per backend) owe the other. An ended link keeps them for the boards.
 */
export async function linkBalances(db: Queryable): Promise<FederationLinkBalance[]> {
  const { rows } = await db.query<{ public_id: string; held_cents: string; owed: string }>(
    `SELECT l.public_id, l.held_cents::text,
       ${OWED_ON_LINK}::text AS owed
     FROM federation_links l WHERE l.state <> 'invited'`,
  );
  return rows.map((r) => ({ linkId: r.public_id, held: formatCents(BigInt(r.held_cents)), owed: formatCents(BigInt(r.owed)) }));
}

/**
 * The associations a visitor of a payment link may be a member of, to pay from their own app
 * (docs/federation.md, "the member's side"): the links active and switched on at both ends, where
 * a payment could cross now, and the associations a linked server said reach this side through it
 * (forwarding.ts), over such a link, unless linked directly too. Their names and addresses only,
 * which anybody may read: the page offers these addresses and no other, never one its own query
 * names.
 */
export async function linkedAssociations(db: Queryable): Promise<LinkedAssociation[]> {
  const { rows } = await db.query<LinkedAssociation>(
    `WITH usable AS (
       SELECT id, peer_name, peer_url FROM federation_links
        WHERE state = 'active' AND enabled AND peer_enabled AND peer_name IS NOT NULL AND peer_url IS NOT NULL
     )
     SELECT name, url FROM (
       SELECT peer_name AS name, peer_url AS url, id FROM usable
       UNION ALL
       (SELECT DISTINCT ON (r.url) r.name, r.url, u.id FROM federation_reached_by r JOIN usable u ON u.id = r.link_id
         WHERE r.url NOT IN (SELECT peer_url FROM federation_links WHERE state = 'active' AND peer_url IS NOT NULL)
         ORDER BY r.url, u.id)
     ) x ORDER BY name, url`,
  );
  return rows;
}

const hashSecret = (secret: string) => createHash("sha256").update(secret).digest();

/** An owner invites another association: a link waiting for its answer, and the code to send them. */
export async function createInvitation(db: Db, settings: Settings, memberId: bigint) {
  const server = await describeServer(db, settings);
  const secret = randomBytes(24).toString("base64url");
  const id = `fl_${randomBytes(12).toString("base64url")}`;
  const row = await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<LinkRow>(
      `INSERT INTO federation_links (public_id, role, state, secret_hash) VALUES ($1, 'inviter', 'invited', $2) RETURNING ${COLUMNS}`,
      [id, hashSecret(secret)],
    );
    await audit(tx, memberId, "federation.invited", id);
    return rows[0]!;
  });
  const code = INVITATION_PREFIX + Buffer.from(JSON.stringify({ u: server.url, f: server.fingerprint, s: secret })).toString("base64url");
  return { link: linkView(row), code };
}

function readInvitation(net: PeerNet, code: string): { url: string; fingerprint: string; secret: string } {
  const invalid = () => new Refusal(ErrorCode.validation, { id: SM.federationCodeInvalid });
  const text = code.replace(/\s+/g, "");
  if (!text.startsWith(INVITATION_PREFIX)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text.slice(INVITATION_PREFIX.length), "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  const { u, f, s } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof u !== "string" || typeof f !== "string" || typeof s !== "string" || !/^[0-9a-f]{32}$/.test(f) || !/^[A-Za-z0-9_-]{16,128}$/.test(s))
    throw invalid();
  const url = peerBaseUrl(u);
  refuseInsecure(net, url);
  return { url, fingerprint: f, secret: s };
}

/** The live link with a server's key, if any (at most one: an index holds it). */
async function linkByKey(db: Queryable, key: Buffer): Promise<LinkRow | null> {
  const { rows } = await db.query<LinkRow>(`SELECT ${COLUMNS} FROM federation_links WHERE peer_key = $1 AND state IN ${LIVE_STATES}`, [key]);
  return rows[0] ?? null;
}

/**
 * Who an invitation's code comes from, read again at its address: its server's description, its
 * key the one the code's fingerprint names (else refused, as an acceptance would be), not this
 * server, and no link with it already. Each step of an acceptance starts here, and so does the
 * accepting owner's look before accepting.
 */
async function invitingServer(db: Db, settings: Settings, net: PeerNet, code: string) {
  const invitation = readInvitation(net, code);
  const us = await describeServer(db, settings);
  if (invitation.fingerprint === us.fingerprint) throw new Refusal(ErrorCode.validation, { id: SM.federationSelf });
  const peer = await fetchPeerServer(net, invitation.url, invitation.fingerprint);
  const peerKey = Buffer.from(peer.publicKey, "base64url");
  const existing = await linkByKey(db, peerKey);
  if (existing && !(existing.role === "invitee" && existing.state === "accepted"))
    throw new Refusal(ErrorCode.stateConflict, { id: SM.federationAlreadyLinked });
  return { invitation, us, peer, peerKey, existing };
}

/** Who invites, shown to the owner before accepting: nothing is recorded, nothing told to anybody. */
export async function previewInvitation(db: Db, settings: Settings, net: PeerNet, code: string): Promise<FederationInvitationPreview> {
  const { peer } = await invitingServer(db, settings, net, code);
  return {
    name: peer.name,
    url: peer.url,
    currencyName: peer.currencyName,
    currencySymbol: peer.currencySymbol,
    publicKey: peer.publicKey,
    fingerprint: peer.fingerprint,
  };
}

/**
 * An owner of the invited association accepts with the code and sets this side's terms: this
 * server checks the inviting server's key against the code's fingerprint, records the link, and
 * tells it (signed). Told nothing or refused, it records nothing. Accepting the same code again
 * (its answer lost) asks again.
 */
export async function acceptInvitation(
  db: Db,
  settings: Settings,
  net: PeerNet,
  memberId: bigint,
  code: string,
  terms: FederationTerms,
): Promise<FederationLink> {
  const stored = storedTerms(terms);
  const { invitation, us, peer, peerKey, existing } = await invitingServer(db, settings, net, code);
  const key = await federationKey(db);
  await callPeer(net, key, peer.url, peer.publicKey, "peerAcceptLink", { secret: invitation.secret, server: us, terms });
  // They recorded the acceptance: so does this side (or updates what it recorded the first time).
  const row = await inTransaction(db, async (tx) => {
    const id = existing?.public_id ?? `fl_${randomBytes(12).toString("base64url")}`;
    const { rows } = await tx.query<LinkRow>(
      `INSERT INTO federation_links (public_id, role, state, peer_url, peer_name, peer_currency_name, peer_currency_symbol, peer_key,
         our_value_e4, their_value_e4, trust_limit_cents, enabled, terms_version, terms_told_version)
       VALUES ($1, 'invitee', 'accepted', $2, $3, $4, $5, $6, $7, $8, $9, $10, 1, 1)
       ON CONFLICT (peer_key) WHERE state IN ${LIVE_STATES} DO UPDATE SET our_value_e4 = EXCLUDED.our_value_e4, their_value_e4 = EXCLUDED.their_value_e4,
         trust_limit_cents = EXCLUDED.trust_limit_cents, enabled = EXCLUDED.enabled, updated_at = now()
       RETURNING ${COLUMNS}`,
      [id, peer.url, peer.name, peer.currencyName, peer.currencySymbol, peerKey, stored.ours, stored.theirs, stored.limit, stored.enabled],
    );
    await audit(tx, memberId, "federation.accepted", rows[0]!.public_id, { peer: peer.name, url: peer.url, fingerprint: peer.fingerprint, terms });
    return rows[0]!;
  });
  return linkView(row);
}

/**
 * What a signed acceptance must pass before anything of it is read or stored: anybody's server may send
 * one, so it is counted per client address (in PostgreSQL, across every instance), and refused at
 * once while no invitation of this server waits for an answer.
 */
export async function admitAcceptance(db: Queryable, settings: Settings, ip: string): Promise<void> {
  await hit(db, `federation-accept:ip:${ip}`, settings.limits.federationAcceptPerIp);
  const { rowCount } = await db.query("SELECT 1 FROM federation_links WHERE secret_hash IS NOT NULL LIMIT 1");
  if (!rowCount) throw new Refusal(ErrorCode.stateConflict, { id: SM.federationInvitationGone });
}

/**
 * The inviting server hears the acceptance, signed by the key it names: the invitation's secret
 * opens it for that key only. The same acceptance again is answered again. Its nonce is
 * remembered only once its secret opened an invitation, in the transaction that records it: a
 * server that holds no secret stores nothing here.
 */
export async function peerAccepted(
  db: Db,
  settings: Settings,
  net: PeerNet,
  signer: Signer,
  body: z.output<typeof schemas.peerAcceptLink.body>,
): Promise<{ server: FederationServer }> {
  if (body.server.publicKey !== signer.keyId) throw new Refusal(ErrorCode.forbidden, { id: SM.federationSignatureRefused });
  const stored = storedTerms(body.terms);
  const server = await describeServer(db, settings);
  const named = checkedServer(body.server);
  refuseInsecure(net, named.url);
  await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<LinkRow & { id: string }>(`SELECT id, ${COLUMNS} FROM federation_links WHERE secret_hash = $1 FOR UPDATE`, [
      hashSecret(body.secret),
    ]);
    const link = rows[0];
    if (!link || (link.state === "accepted" && !link.peer_key?.equals(signer.publicKey)))
      throw new Refusal(ErrorCode.stateConflict, { id: SM.federationInvitationGone });
    if (!(await rememberNonce(tx, signer.keyId, signer.nonce))) throw new Refusal(ErrorCode.loginRequired, { id: SM.federationSignatureRefused });
    const other = await linkByKey(tx, signer.publicKey);
    if (other && other.public_id !== link.public_id) throw new Refusal(ErrorCode.stateConflict, { id: SM.federationAlreadyLinked });
    await tx.query(
      `UPDATE federation_links SET state = 'accepted', peer_url = $2, peer_name = $3, peer_currency_name = $4, peer_currency_symbol = $5, peer_key = $6,
         peer_our_value_e4 = $7, peer_their_value_e4 = $8, peer_trust_limit_cents = $9, peer_enabled = $10, peer_terms_version = 1, updated_at = now()
       WHERE id = $1`,
      [link.id, named.url, named.name, named.currencyName, named.currencySymbol, signer.publicKey, stored.ours, stored.theirs, stored.limit, stored.enabled],
    );
    // The fingerprint of the key that signed, not the one the body claims.
    await audit(tx, null, "federation.peer_accepted", link.public_id, {
      peer: named.name,
      url: named.url,
      fingerprint: fingerprintOf(signer.publicKey),
      terms: body.terms,
    });
  });
  return { server };
}

export async function linkById(db: Queryable, id: string): Promise<LinkRow> {
  const { rows } = await db.query<LinkRow>(`SELECT ${COLUMNS} FROM federation_links WHERE public_id = $1`, [id]);
  if (!rows[0]) throw new Refusal(ErrorCode.notFound, { id: SM.federationLinkNotFound });
  return rows[0];
}

export const wrongState = () => new Refusal(ErrorCode.stateConflict, { id: SM.federationLinkState });

/**
 * The inviting side's owner confirms an accepted link with this side's terms: the other server is
 * told (signed) first, and the link is active here once it answered. Its address is asked again
 * for its key: an acceptance naming somebody else's address links nothing.
 */
export async function confirmLink(net: PeerNet, db: Db, memberId: bigint, id: string, terms: FederationTerms): Promise<FederationLink> {
  const link = await linkById(db, id);
  if (link.role !== "inviter" || link.state !== "accepted") throw wrongState();
  const stored = storedTerms(terms);
  const peer = await fetchPeerServer(net, link.peer_url!);
  if (peer.publicKey !== link.peer_key!.toString("base64url")) throw new Refusal(ErrorCode.validation, { id: SM.federationFingerprintMismatch });
  await callPeer(net, await signingKeyFor(db, link.peer_key), link.peer_url!, peer.publicKey, "peerConfirmLink", { terms });
  const row = await activeAlone(() =>
    inTransaction(db, async (tx) => {
      const replaced = await replaceOthers(tx, link);
      const { rows } = await tx.query<LinkRow>(
        `UPDATE federation_links SET state = 'active', secret_hash = NULL, our_value_e4 = $2, their_value_e4 = $3, trust_limit_cents = $4, enabled = $5,
           terms_version = 1, terms_told_version = 1, updated_at = now()
         WHERE public_id = $1 AND state = 'accepted' RETURNING ${COLUMNS}`,
        [id, stored.ours, stored.theirs, stored.limit, stored.enabled],
      );
      if (!rows[0]) throw wrongState();
      // One more association this server reaches, one fewer if it replaced another's link.
      await reachChanged(tx);
      await audit(tx, memberId, "federation.confirmed", id, { peer: link.peer_name, terms, ...(replaced.length ? { replaces: replaced } : {}) });
      return rows[0];
    }),
  );
  return linkView(row);
}

/**
 * The link about to be active is the one with its server's address: any other active link with
 * that address is replaced. Its server holds a new key now (the link about to be active checked it
 * there), so the old link's key answers there no more; its balance and payments stay in the books.
 */
async function replaceOthers(tx: Queryable, link: LinkRow): Promise<string[]> {
  const { rows } = await tx.query<{ public_id: string }>(
    "UPDATE federation_links SET state = 'replaced', updated_at = now() WHERE peer_url = $1 AND state = 'active' AND public_id <> $2 RETURNING public_id",
    [link.peer_url, link.public_id],
  );
  return rows.map((r) => r.public_id);
}

/** Two links to one address made active at once: the one that came second is told it is not waiting any more, rather than a 500. */
export async function activeAlone<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if ((e as { code?: string; constraint?: string }).constraint === "federation_links_one_active_per_address") throw wrongState();
    throw e;
  }
}

/**
 * The invited server hears the confirmation, signed by the inviting server's key: the link is
 * active. Told again, it answers again; the confirmation's terms are the inviting side's first
 * (number 1), so one arriving after a change of them changes nothing.
 */
export async function peerConfirmed(db: Db, signer: Signer, terms: FederationTerms): Promise<void> {
  await recordPeerTerms(
    db,
    signer,
    { terms, version: 1, sameAgain: true },
    (link) => link.role === "invitee" && link.state !== "replaced",
    (link, replaced) => ["federation.peer_confirmed", { peer: link.peer_name, terms, ...(replaced.length ? { replaces: replaced } : {}) }],
  );
}

/** Terms another server told, with their number; `sameAgain`: the same number again is recorded again (a confirmation sent again). */
export interface ToldTerms {
  terms: FederationTerms;
  version: number;
  sameAgain: boolean;
}

/**
 * The terms a linked server told, recorded on its link (which is then active) when `allowed`,
 * with their audit entry; older than the last recorded (or the same, unless `sameAgain`), they
 * are answered and change nothing: a change sent again until answered, or arriving late, never
 * puts older terms over newer ones.
 */
export async function recordPeerTerms(
  db: Db,
  signer: Signer,
  told: ToldTerms,
  allowed: (link: LinkRow) => boolean,
  entry: (link: LinkRow, replaced: string[]) => [AuditAction, Record<string, unknown>],
): Promise<void> {
  const stored = storedTerms(told.terms);
  await activeAlone(() =>
    inTransaction(db, async (tx) => {
      const { rows } = await tx.query<LinkRow>(`SELECT ${COLUMNS} FROM federation_links WHERE peer_key = $1 AND state IN ${LIVE_STATES} FOR UPDATE`, [
        signer.publicKey,
      ]);
      const link = rows[0];
      if (!link || !allowed(link)) throw wrongState();
      const last = BigInt(link.peer_terms_version);
      const version = BigInt(told.version);
      if (version < last || (version === last && !told.sameAgain)) return;
      const replaced = link.state === "active" ? [] : await replaceOthers(tx, link);
      await tx.query(
        `UPDATE federation_links SET state = 'active', peer_our_value_e4 = $2, peer_their_value_e4 = $3, peer_trust_limit_cents = $4, peer_enabled = $5,
           peer_terms_version = $6, updated_at = now()
         WHERE public_id = $1`,
        [link.public_id, stored.ours, stored.theirs, stored.limit, stored.enabled, version],
      );
      // The link active, or its terms changed: whether payments can be forwarded over it may have.
      await reachChanged(tx);
      const [action, details] = entry(link, replaced);
      await audit(tx, null, action, link.public_id, details);
    }),
  );
}

/** An owner withdraws an invitation nobody answered: the link is gone, and its code opens nothing. */
export async function withdrawInvitation(db: Db, memberId: bigint, id: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<LinkRow>(`SELECT ${COLUMNS} FROM federation_links WHERE public_id = $1 FOR UPDATE`, [id]);
    const link = rows[0];
    if (!link) throw new Refusal(ErrorCode.notFound, { id: SM.federationLinkNotFound });
    if (link.role !== "inviter" || link.state !== "invited") throw wrongState();
    await tx.query("DELETE FROM federation_links WHERE public_id = $1", [id]);
    await audit(tx, memberId, "federation.invitation_withdrawn", id);
  });
}
