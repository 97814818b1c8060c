import { validatePayload, type QrPayload } from "@mutua/domain";

/** The code back from the screen's address (link.ts's `across`), checked as a scanned one is; null when it is not one to pay across. */
export function payloadFromSearch(search: string): (QrPayload & { server: string }) | null {
  // Only `across` names the server: a `srv` in the query is ignored, as a link's always is.
  const { across: server, srv: _ignored, ...fields } = Object.fromEntries(new URLSearchParams(search).entries());
  if (!server) return null;
  const r = validatePayload({ ...fields, srv: server });
  return r.ok && r.payload.server ? (r.payload as QrPayload & { server: string }) : null;
}
