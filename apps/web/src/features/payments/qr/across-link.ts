import { payAcrossLink, type QrPayload } from "@mutua/domain";

/**
 * The screen that pays a member of a linked association (docs/federation.md) is the payment
 * link's route with the payee's server as `across`: a route of its own would weigh on the login
 * page, which carries the table of routes (bench/budgets.json). A name apart from the codes' `srv`,
 * which a link never takes from its query (its own origin is its server). Read back by
 * address.ts and qr/PayLinkScreen.tsx, which spell it themselves: a module shared by those chunks
 * would be one more file for the dashboard to list (pay-across.test.ts checks they agree).
 */
export const ACROSS = "across";

/**
 * Whether a scanned code is another association's: it names a server, and not this one. A code
 * without a server (Monujo's, or an older one of ours) is this server's, as it always was.
 */
export const isAcross = (p: QrPayload, ownOrigin: string): p is QrPayload & { server: string } =>
  p.server !== undefined && p.server !== new URL(ownOrigin).origin;

/**
 * The screen's address for a code: its fields in the query, so a reload or the back button finds
 * the same payment (nothing is kept in memory between the scan and the screen). The domain's
 * payAcrossLink, which another association's payment link page uses too: one format.
 */
export const payAcrossPath = (p: QrPayload & { server: string }): string => payAcrossLink("", p);
