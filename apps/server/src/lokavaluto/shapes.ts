import { formatCents } from "@mutua/domain";
import type { Queryable } from "../db/pool";
import type { Settings } from "../settings";
import type { MemberRow } from "../services/members/members";
import { notFound } from "../services/platform/errors";
import { currencyOfBackend, custodialBackend } from "../services/wallets/backends";
import { getWallet, type BackendRow, type WalletRow } from "../services/wallets/wallets";

/**
 * Names and shapes of Lokavaluto's API (its Odoo `lokavaluto_api` module and the Cyclos calls
 * of lokapi's Cyclos plugin), over Mutua's own data. See docs/lokavaluto.md for the mapping.
 */

/**
 * A custodial wallet is a Cyclos "owner": its id without the kind prefix (`custodial:ab12…` is
 * owner `ab12…`), so it fits a URL path segment and the plugin's `cyclos:<owner>@<host>` ids.
 */
const CUSTODIAL = "custodial:";
export const ownerOf = (walletId: string): string => walletId.slice(CUSTODIAL.length);
export const walletOf = (owner: string): string => `${CUSTODIAL}${owner}`;

/** The wallet an owner id names, in any of the forms the plugin sends: `o`, `cyclos:o`, `cyclos:o@host`. */
export function walletFromIdent(ident: string): string | null {
  const owner = ident.replace(/^cyclos:/, "").replace(/@[^@]*$/, "");
  return /^[A-Za-z0-9._-]{1,80}$/.test(owner) ? walletOf(owner) : null;
}

/**
 * Where clients reach us: the configured PUBLIC_URL, never the request's Host header (which the
 * client chooses, and which would send a member's app and token to any host it names). The
 * plugin keys a backend by the host of its accounts' URL.
 */
export const origin = (s: Settings): string => new URL(s.publicUrl).origin;
export const LOKAVALUTO_PREFIX = "/lokavaluto_api";
/** Where the Cyclos slice answers: the `url` of each account in the backend data. */
export const CYCLOS_PREFIX = "/cyclos/api";
export const cyclosUrl = (s: Settings): string => `${origin(s)}${CYCLOS_PREFIX}`;
/** The backend key lokapi derives from that URL: `cyclos:<host[:port]>`. */
export const backendKey = (s: Settings): string => `cyclos:${new URL(origin(s)).host}`;

/** The custodial backend Lokavaluto clients see (one per host: the plugin keys backends by host). */
export async function exposedBackend(db: Queryable, s: Settings): Promise<BackendRow | null> {
  return custodialBackend(db, s.lokapiCyclosBackend ?? null);
}

/** The member's own wallet in the exposed backend, named in any of lokapi's forms; anything else is "not found". */
export async function ownExposedWallet(db: Queryable, s: Settings, memberId: bigint, ident: string | undefined): Promise<WalletRow> {
  const b = await exposedBackend(db, s);
  const walletId = ident ? walletFromIdent(ident) : null;
  const w = walletId ? await getWallet(db, walletId) : null;
  if (!b || !w || w.backend_id !== b.id || w.member_id !== memberId || w.status === "discarded") throw notFound();
  return w;
}

/** Odoo's `lcc_profile_info`; Odoo says `false` for an empty field, and lokapi expects it. */
export interface Partner {
  id: number;
  name: string;
  public_name: string;
  is_favorite: boolean;
  is_company: boolean;
  street: false;
  street2: false;
  zip: false;
  city: false;
  mobile: false;
  email: string | false;
  phone: string | false;
  country_id: false;
}

/**
 * A member as a partner. Contact details are the member's own business: only their own profile
 * carries e-mail and phone, as our own directory shows none of another member's.
 */
export function partner(p: { id: number; name: string; email?: string; phone?: string | null }, favorite = false): Partner {
  return {
    id: p.id,
    name: p.name,
    public_name: p.name,
    is_favorite: favorite,
    is_company: false,
    street: false,
    street2: false,
    zip: false,
    city: false,
    mobile: false,
    email: p.email ?? false,
    phone: p.phone ?? false,
    country_id: false,
  };
}

export const ownPartner = (m: Pick<MemberRow, "id" | "first_name" | "last_name" | "email" | "phone">): Partner =>
  partner({ id: Number(m.id), name: `${m.first_name} ${m.last_name}`, email: m.email, phone: m.phone });

/**
 * Amounts Odoo sends as numbers (product quantities, order amounts). The JSON text is the exact
 * decimal of the cents; no arithmetic happens on it here.
 */
export const decimalNumber = (cents: bigint | null): number | false => (cents === null ? false : Number(formatCents(cents)));

export async function currencyOf(db: Queryable, backendId: string): Promise<{ id: string; name: string; symbol: string }> {
  const c = await currencyOfBackend(db, backendId);
  if (!c) throw notFound();
  return c;
}
