import { PEER_BATCH_MAX, SM } from "@mutua/domain";
import type { schemas } from "@mutua/domain/api/schemas";
import type { z } from "zod";
import type { Queryable } from "../../db/pool";
import { Batcher } from "../ledger/batching";
import { Refusal } from "../platform/errors";
import { callPeer, peerRefusal, unreachable } from "./peer-client";
import type { PeerNet } from "./peer-net";
import { signingKeyFor, type ServerKey } from "./server-key";

/**
 * Quotes and payments across one link sent together (docs/performance.md "Payments across a
 * link"): while one request to a linked server is on its way, those that wait for the same link
 * gather and go in the next request, one signed exchange for all of them, as the ledger's group
 * commit gathers local payments. A lone one goes at once, alone, by the route of one. Each is
 * decided by the other side exactly as it would be alone, and answered on its own: only the
 * transport is shared. On the other side (http/peer-items.ts), the items of one request reach its
 * own batches together.
 */

type QuoteBody = z.input<typeof schemas.peerQuote.body>;
type Quote = z.output<typeof schemas.peerQuote.response>;
type PayBody = z.input<typeof schemas.peerPay.body>;
type Paid = z.output<typeof schemas.peerPay.response>;

/** One item's answer in a request of several: what the route of one answers, or the error it would have answered. */
export type PeerItem<R> = { ok: R } | { error: { status: number; msgid: string } };

/** A linked server, as this side calls it: its address, its key's id, and the key this side signs with for it. */
export interface PeerAt {
  key: ServerKey;
  url: string;
  keyId: string;
}

/** How this side calls the server of `link`: its address and key, and the key this side signs with for it (read at each use). */
export const peerAt = async (db: Queryable, link: { peer_url: string; peer_key: Buffer }): Promise<PeerAt> => ({
  key: await signingKeyFor(db, link.peer_key),
  url: link.peer_url,
  keyId: link.peer_key.toString("base64url"),
});

/** A quote of the linked server's, asked with any others that wait for the same link. */
export async function quoteFrom(net: PeerNet, at: PeerAt, body: QuoteBody): Promise<Quote> {
  const lane = laneOf<QuoteBody, Quote>(
    net,
    at,
    "quote",
    (b) => callPeer(net, at.key, at.url, at.keyId, "peerQuote", b),
    async (bs) => {
      return (await callPeer(net, at.key, at.url, at.keyId, "peerQuotes", { quotes: bs })).results;
    },
  );
  return told(await lane.submit(body));
}

/** A payment sent to the linked server, with any others that wait for the same link. */
export async function payTo(net: PeerNet, at: PeerAt, body: PayBody): Promise<Paid> {
  const lane = laneOf<PayBody, Paid>(
    net,
    at,
    "pay",
    (b) => callPeer(net, at.key, at.url, at.keyId, "peerPay", b),
    async (bs) => {
      return (await callPeer(net, at.key, at.url, at.keyId, "peerPayments", { payments: bs })).results;
    },
  );
  return told(await lane.submit(body));
}

function told<R>(outcome: R | Refusal): R {
  if (outcome instanceof Refusal) throw outcome;
  return outcome;
}

/** An item's answer as this side tells it: a refusal in this server's words, "did not answer" for one it could not answer now. */
const itemOutcome = <R>(item: PeerItem<R>): R | Refusal => ("ok" in item ? item.ok : item.error.status >= 500 ? unreachable() : peerRefusal(item.error.msgid));

async function outcomeOf<R>(call: Promise<R>): Promise<R | Refusal> {
  try {
    return await call;
  } catch (e) {
    if (e instanceof Refusal) return e;
    throw e;
  }
}

// One lane per network, linked server, key and kind: a handful per server, as many as its links.
const lanes = new WeakMap<PeerNet, Map<string, Batcher<never, unknown>>>();

function laneOf<B, R>(
  net: PeerNet,
  at: PeerAt,
  kind: "quote" | "pay",
  one: (item: B) => Promise<R>,
  many: (items: B[]) => Promise<PeerItem<R>[]>,
): Batcher<B, R | Refusal> {
  let ofNet = lanes.get(net);
  if (!ofNet) lanes.set(net, (ofNet = new Map()));
  const name = `${kind} ${at.url} ${at.keyId} ${at.key.keyId}`;
  let lane = ofNet.get(name) as unknown as Batcher<B, R | Refusal> | undefined;
  if (!lane) {
    lane = new Batcher<B, R | Refusal>({
      one: (item) => outcomeOf(one(item)),
      many: async (items) => {
        try {
          const results = await many(items);
          if (results.length === items.length) return results.map(itemOutcome);
        } catch (e) {
          if (!(e instanceof Refusal)) throw e;
          // Nothing reached it, or it could not answer now: each item is told so, as alone.
          if (e.msg.id === SM.federationPeerUnreachable) return items.map(() => e);
        }
        // An answer that does not check out, or a server that knows no requests of several (an
        // older version): each item goes alone; one the other side made is answered from its row.
        return Promise.all(items.map((item) => outcomeOf(one(item))));
      },
      // One request in flight per lane: what arrives meanwhile goes in the next one. With two in
      // flight, as the database's batches, the requests carried little more than one item each and
      // every item paid for its own signed exchange (docs/performance.md "fifth round").
      concurrency: 1,
      maxBatch: PEER_BATCH_MAX,
    });
    ofNet.set(name, lane as unknown as Batcher<never, unknown>);
  }
  return lane;
}
