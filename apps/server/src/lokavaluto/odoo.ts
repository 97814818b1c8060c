import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { ErrorCode, type Recipient } from "@mutua/domain";
import type { AppDeps } from "../deps";
import { Refusal, notFound } from "../services/platform/errors";
import { findMemberById, login, signup, type MemberRow } from "../services/members/members";
import { requestPasswordReset } from "../services/members/password-reset";
import { activeWalletHolders, searchRecipients, setFavorite } from "../services/members/directory";
import { cancelTopUp, createTopUp, creditRequests, pendingTopUps } from "../services/payments/topups";
import { reconversionStatuses } from "../services/payments/reconversions";
import { canPay } from "../services/payments/payments";
import { requireRight } from "../services/members/rights";
import { firstMemberWallet, getWallet, systemWallet } from "../services/wallets/wallets";
import { backendKey, cyclosUrl, decimalNumber, exposedBackend, ownExposedWallet, ownerOf, ownPartner, partner, walletFromIdent, walletOf } from "./shapes";
import { amountText, apiKey, memberOfKey, parse, query } from "./transport";

// Under LOKAVALUTO_PREFIX (see index.ts).
const PUBLIC = "/public";
const PRIVATE = "/private";

/** Odoo answers authentication, sign-up and reset failures with HTTP 200 and this body. */
const refused = (error: string) => ({ status: "Error" as const, error });

/** Basic auth: `login:password`, the password may hold colons. */
function basicAuth(req: FastifyRequest): { login: string; password: string } | null {
  const h = req.headers.authorization;
  if (!h?.startsWith("Basic ")) return null;
  const text = Buffer.from(h.slice(6).trim(), "base64").toString("utf8");
  const i = text.indexOf(":");
  return i < 0 ? null : { login: text.slice(0, i), password: text.slice(i + 1) };
}

/**
 * lokapi's BackendData for the exposed custodial backend. The token is the API key itself, in the
 * login's prefetch and in every later answer alike: the plugin caches a backend per JSON text,
 * and a new login (a new key) must give a new one.
 */
async function backendCredentials(deps: AppDeps, member: MemberRow, token: string) {
  const b = await exposedBackend(deps.db, deps.settings);
  if (!b) return [];
  const key = backendKey(deps.settings);
  const wallet = await firstMemberWallet(deps.db, member.id, b.id, { activeOnly: false });
  const rows = wallet ? [wallet] : [];
  const safe = await systemWallet(deps.db, b.id, "safe");
  return [
    {
      type: key,
      min_credit_amount: decimalNumber(b.min_credit_amount),
      max_credit_amount: decimalNumber(b.max_credit_amount),
      accounts: rows.map((w) => ({ owner_id: ownerOf(w.id), url: cyclosUrl(deps.settings), active: w.status === "active", token })),
      // Reconversion: payments to the association's safe wallet (shown by the plugin as "Admin").
      ...(safe
        ? {
            safe_wallet_recipient: {
              // No member owns it: partner id 0, which no member has.
              ...partner({ id: 0, name: deps.settings.associationName }),
              monujo_backends: { [key]: [ownerOf(safe.id)] },
            },
          }
        : {}),
    },
  ];
}

/** A payable member as a search row: lokapi makes a recipient of each owner id under the backend's key. */
const recipientRow = (r: Recipient, key: string) => ({
  ...partner({ id: r.memberId, name: r.name }, r.isFavorite),
  monujo_backends: { [key]: [ownerOf(r.walletId)] },
});

const SearchQuery = z.object({
  value: z.string().max(200).default(""),
  backend_keys: z.array(z.string().max(200)).max(20).optional(),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(30),
  order: z.string().max(100).optional(),
});
const UriQuery = z.object({
  data: z.object({ rp: z.coerce.number().int().positive(), rpb: z.string().max(200) }),
  backend_keys: z.array(z.string().max(200)).max(20).optional(),
});
const KeysQuery = z.object({ backend_keys: z.array(z.string().max(200)).min(1).max(20) });
const AllowedQuery = z.object({ sender_wallet_ident: z.string().max(200), recipient_wallet_ident: z.string().max(200) });
const OrderBody = z.object({ order_id: z.union([z.string().max(80), z.number().int()]) });
const CreditBody = z.object({ owner_id: z.string().max(100), amount: z.union([z.string().max(40), z.number()]) });
const ContactBody = z.object({ addresses: z.array(z.string().max(100)).max(500) });
const ReconversionsBody = z.object({ transactions: z.array(z.string().max(300)).max(500) });
const SignupBody = z.object({ login: z.string().max(320), firstname: z.string().max(100), lastname: z.string().max(100), password: z.string().max(200) });
const ResetBody = z.object({ login: z.string().max(320) });

export function odooRoutes(app: FastifyInstance, deps: AppDeps): void {
  // `deps.features` is read at each use: the association's switches change while it runs.
  const { db, settings } = deps;

  // --- public ---

  app.post(`${PUBLIC}/auth/authenticate`, async (req) => {
    const creds = basicAuth(req);
    if (!creds) return refused("Access denied");
    try {
      const session = await login(db, settings, deps.mailer, req.ip, creds.login, creds.password, deps.defaultLanguage);
      const member = (await findMemberById(db, BigInt(session.profile.id)))!;
      return {
        status: "OK",
        uid: session.profile.id,
        api_token: session.token,
        api_version: 12,
        prefetch: { partner: ownPartner(member), backend_credentials: await backendCredentials(deps, member, session.token) },
      };
    } catch (e) {
      // The exact text lokapi turns into InvalidCredentials; other refusals (rate limit) say why.
      if (e instanceof Refusal && e.code === ErrorCode.invalidCredentials) return refused("Access denied");
      if (e instanceof Refusal) return refused(e.message);
      throw e;
    }
  });

  app.post(`${PUBLIC}/auth/can_signup`, async () => settings.allowSignup);
  app.post(`${PUBLIC}/auth/can_reset_password`, async () => settings.allowResetPassword);

  app.post(`${PUBLIC}/auth/signup`, async (req) => {
    const body = parse(SignupBody, req.body);
    try {
      await signup(
        db,
        settings,
        deps.mailer,
        req.ip,
        { email: body.login, firstName: body.firstname, lastName: body.lastname, password: body.password },
        deps.defaultLanguage,
      );
      return { status: "OK" };
    } catch (e) {
      // lokapi recognises this phrase as UserOrEmailAlreadyTaken.
      if (e instanceof Refusal && e.code === ErrorCode.emailTaken) return refused("The user is already registered.");
      if (e instanceof Refusal) return refused(e.message);
      throw e;
    }
  });

  app.post(`${PUBLIC}/auth/reset_password`, async (req) => {
    const body = parse(ResetBody, req.body);
    try {
      await requestPasswordReset(db, settings, deps.mailer, req.ip, body.login, deps.defaultLanguage);
      return { status: "OK" };
    } catch (e) {
      // lokapi recognises this phrase as InvalidUserOrEmail.
      if (e instanceof Refusal && e.code === ErrorCode.unknownUser) return refused("Reset password: invalid username or email");
      if (e instanceof Refusal) return refused(e.message);
      throw e;
    }
  });

  // Not the web app's page: lokapi parses every answer as JSON.
  app.all(`${PUBLIC}/*`, async () => {
    throw notFound();
  });

  // --- private: every route resolves the API key first (401 only for a bad key) ---

  const me = async (req: FastifyRequest) => {
    const memberId = await memberOfKey(db, settings, req);
    const m = await findMemberById(db, memberId);
    if (!m) throw notFound();
    return m;
  };

  const profile = async (req: FastifyRequest<{ Params: { id: string } }>) => {
    const m = await me(req);
    // Only the member's own profile: another's is what the search answers, without contact details.
    if (req.params.id !== "0" && req.params.id !== String(m.id)) throw notFound();
    return ownPartner(m);
  };
  app.get(`${PRIVATE}/partner/:id`, profile);
  app.get(`${PRIVATE}/partner/:id/get`, profile);

  app.post(`${PRIVATE}/partner/backend_credentials`, async (req) => backendCredentials(deps, await me(req), apiKey(req)!));

  const search = async (req: FastifyRequest) => {
    const m = await me(req);
    const q = parse(SearchQuery, query(req));
    const b = await exposedBackend(db, settings);
    const key = backendKey(settings);
    if (!b || (q.backend_keys && !q.backend_keys.includes(key))) return { count: 0, rows: [] };
    const found = await searchRecipients(db, settings, m.id, { q: q.value, offset: q.offset, limit: q.limit, backendId: b.id });
    const rows = found.rows.map((r) => recipientRow(r, key));
    // lokapi reads only the rows (and asks again while a page is full); the count is this page's.
    return { count: rows.length, rows };
  };
  app.get(`${PRIVATE}/partner/search`, search);
  app.get(`${PRIVATE}/partner/partner_search`, search);

  // A QR code's partner and wallet (spec: pay by QR).
  app.get(`${PRIVATE}/partner/get_recipient_by_uri`, async (req) => {
    const m = await me(req);
    const q = parse(UriQuery, query(req));
    const b = await exposedBackend(db, settings);
    const walletId = walletFromIdent(q.data.rpb);
    if (!b || !walletId) throw notFound();
    const found = await searchRecipients(db, settings, m.id, { q: "", offset: 0, limit: 1, backendId: b.id, walletId });
    const r = found.rows[0];
    if (!r || r.memberId !== q.data.rp) throw notFound();
    return recipientRow(r, backendKey(settings));
  });

  for (const [action, favorite] of [
    ["set", true],
    ["unset", false],
  ] as const) {
    app.put(`${PRIVATE}/partner/:id/favorite/${action}`, async (req: FastifyRequest<{ Params: { id: string } }>) => {
      const m = await me(req);
      if (!/^\d{1,18}$/.test(req.params.id)) throw notFound();
      await setFavorite(db, m.id, BigInt(req.params.id), favorite);
      return {};
    });
  }

  // The payment rule of our own API (services/payments/payments.ts), asked of the two wallets.
  app.get(`${PRIVATE}/partner/is_transaction_allowed`, async (req) => {
    const m = await me(req);
    const q = parse(AllowedQuery, query(req));
    const from = walletFromIdent(q.sender_wallet_ident);
    const to = walletFromIdent(q.recipient_wallet_ident);
    const [a, b] = await Promise.all([from ? getWallet(db, from) : null, to ? getWallet(db, to) : null]);
    return canPay(m.id, a, b);
  });

  app.get(`${PRIVATE}/partner/pending-topup`, async (req) => {
    const m = await me(req);
    const q = parse(KeysQuery, query(req));
    const { id: walletId } = await ownExposedWallet(db, settings, m.id, q.backend_keys[0]);
    const orders = await pendingTopUps(db, settings, m.id, walletId);
    return orders.map((o) => ({
      credit_id: o.id,
      order_id: o.id,
      order_url: o.order_url,
      amount: Number(o.amount),
      date: Math.floor(Date.parse(o.date) / 1000),
      name: o.requester.name,
      monujo_backend: [backendKey(settings), `cyclos:${ownerOf(walletId)}`],
      paid: o.paid,
      requester: o.requester,
    }));
  });

  app.post(`${PRIVATE}/partner/remove-pending-topup`, async (req) => {
    const m = await me(req);
    const body = parse(OrderBody, req.body);
    await cancelTopUp(db, m.id, String(body.order_id));
    return true;
  });

  // The administrator's list of paid top-ups to validate (credit validation right).
  app.get(`${PRIVATE}/partner/credit-requests`, async (req) => {
    const m = await me(req);
    await requireRight(db, m.id, "credits");
    const b = await exposedBackend(db, settings);
    if (!b) return [];
    const key = backendKey(settings);
    return (await creditRequests(db))
      .filter((o) => o.backendId === b.id)
      .map((o) => ({
        credit_id: o.id,
        order_id: o.id,
        order_url: "",
        amount: Number(o.amount),
        date: Math.floor(Date.parse(o.date) / 1000),
        name: o.related,
        monujo_backend: [key, `cyclos:${ownerOf(o.walletId)}`],
        paid: true,
        requester: o.requester,
      }));
  });

  // Only statuses of the member's own reconversions; one still "sent" is left out, which lokapi shows as sent.
  app.post(`${PRIVATE}/partner/reconversions`, async (req) => {
    const m = await me(req);
    const body = parse(ReconversionsBody, req.body);
    const ids = new Map(body.transactions.map((uri) => [uri.replace(/^.*\/tx\//, ""), uri]));
    const statuses = await reconversionStatuses(db, m.id, [...ids.keys()]);
    const answer: Record<string, string> = {};
    for (const [id, status] of statuses) if (status !== "sent") answer[ids.get(id)!] = status;
    return answer;
  });

  app.post(`${PRIVATE}/cyclos/credit`, async (req) => {
    const m = await me(req);
    const body = parse(CreditBody, req.body);
    const b = await exposedBackend(db, settings);
    const walletId = walletFromIdent(body.owner_id);
    const w = walletId ? await getWallet(db, walletId) : null;
    if (!b || !w || w.backend_id !== b.id) throw notFound();
    const order = await createTopUp(db, settings, deps.features, m.id, w.id, amountText(body.amount));
    return { order_url: order.order_url };
  });

  // Names of the counterparties in a transaction list: active wallets of the exposed backend only
  // (a pending or discarded wallet's owner is nobody's business).
  app.post(`${PRIVATE}/cyclos/contact`, async (req) => {
    await me(req);
    const body = parse(ContactBody, req.body);
    const b = await exposedBackend(db, settings);
    if (!b || body.addresses.length === 0) return {};
    const holders = await activeWalletHolders(db, body.addresses.map(walletOf), b.id);
    return Object.fromEntries(
      holders.map((h) => [
        ownerOf(h.walletId),
        { partner_id: h.memberId === null ? false : Number(h.memberId), public_name: h.name ?? settings.associationName },
      ]),
    );
  });

  // Anything else under the private prefix: a bad key is still a 401, a good one a 404.
  app.all(`${PRIVATE}/*`, async (req) => {
    await me(req);
    throw notFound();
  });
}
