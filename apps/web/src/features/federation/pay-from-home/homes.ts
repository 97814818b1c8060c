import type { MutuaClient } from "@mutua/client";
import { federationRoutes, payAcrossLink, validatePayload, type LinkedAssociation, type QrPayload } from "@mutua/domain";

/**
 * The payment a visitor of this association's payment link asked for (the link's query, kept while
 * they were sent to sign in), as a member of a linked association pays it from their own app: one
 * of this server's members, checked as a scanned code is, its server this page's own origin
 * whatever the query says. Null for anything else: this app's address for paying across (`across`:
 * its own members paying elsewhere), or a query that is no payment.
 */
export function visitedPayment(search: string, ownOrigin: string): (QrPayload & { server: string }) | null {
  const { across, ...fields } = Object.fromEntries(new URLSearchParams(search).entries());
  if (across !== undefined) return null;
  const r = validatePayload({ ...fields, srv: ownOrigin });
  return r.ok && r.payload.server ? (r.payload as QrPayload & { server: string }) : null;
}

/** An association the visitor may pay from: its name, and its app's address for this payment. */
export interface Home {
  name: string;
  href: string;
}

/**
 * Where each linked association's app pays `payment`: its server's address, as this server lists
 * its links (never the page's query), with the path a code of this server scanned there opens
 * (payAcrossLink: one format). An address that is not a web one is left out.
 */
export const homesOf = (linked: LinkedAssociation[], payment: QrPayload & { server: string }): Home[] =>
  linked.flatMap((a) => (/^https?:\/\/[^/]/.test(a.url) ? [{ name: a.name, href: payAcrossLink(a.url, payment) }] : []));

/**
 * The associations the visitor of a payment link (its query `search`) may pay it from: none for a
 * query that is no payment of this server's, which asks the server nothing.
 */
export async function homesFor(client: MutuaClient, search: string, ownOrigin: string): Promise<Home[]> {
  const payment = visitedPayment(search, ownOrigin);
  if (!payment) return [];
  // The route is the federation table's, not the members' one the sign-in page carries.
  return homesOf(await client.send("listLinkedAssociations", federationRoutes.listLinkedAssociations), payment);
}
