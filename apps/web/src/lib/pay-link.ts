/**
 * A payment link opened before signing in waits here (this tab only) until the login; the sign-in
 * page's part for its visitor reads it meanwhile (federation/pay-from-home, a chunk of its own).
 */
export const PENDING_KEY = "mutua.pendingPayLink";

export function rememberPayLink(search: string): void {
  try {
    sessionStorage.setItem(PENDING_KEY, search);
  } catch {
    /* no storage: the link is simply lost */
  }
}

/** The payment link kept while the member signed in, once. */
export function takePayLink(): string | null {
  try {
    const s = sessionStorage.getItem(PENDING_KEY);
    sessionStorage.removeItem(PENDING_KEY);
    return s;
  } catch {
    return null;
  }
}
