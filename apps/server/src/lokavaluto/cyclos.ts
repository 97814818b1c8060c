import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { ErrorCode, type TransactionView } from "@mutua/domain";
import { PaymentRequestId } from "@mutua/domain/api/schemas";
import type { AppDeps } from "../deps";
import { notFound, type Refusal } from "../services/platform/errors";
import { walletBalance } from "../services/wallets/accounts";
import { transfer } from "../services/payments/payments";
import { listTransactions } from "../services/ledger/transactions";
import { firstMemberWallet, getWallet, type WalletRow } from "../services/wallets/wallets";
import { currencyOf, exposedBackend, ownExposedWallet, ownerOf, walletFromIdent } from "./shapes";
import { amountText, memberOf, parse, query } from "./transport";

/** Cyclos's page size when the client names none (lokapi's plugin never does). */
const PAGE_SIZE = 40;

/** Cyclos's error codes for ours; lokapi reads `insufficientBalance` and `loggedOut`. */
export function cyclosError(e: Refusal): { code: string; message: string } {
  const code =
    e.code === ErrorCode.loginRequired
      ? "loggedOut"
      : e.code === ErrorCode.insufficientBalance
        ? "insufficientBalance"
        : e.code === ErrorCode.notFound
          ? "entityNotFound"
          : e.code === ErrorCode.forbidden
            ? "permission"
            : e.code === ErrorCode.internal
              ? "unexpected"
              : "validation";
  return { code, message: e.message };
}

const TransactionsQuery = z.object({
  page: z.coerce.number().int().min(0).max(10_000).default(0),
  pageSize: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE),
  orderBy: z.enum(["dateDesc"]).default("dateDesc"),
  datePeriod: z.union([z.string().max(100), z.array(z.string().max(100)).max(2)]).optional(),
});
const PerformQuery = z.object({ to: z.string().max(100) });
const PaymentBody = z.object({
  amount: z.union([z.string().max(40), z.number()]),
  description: z.string().max(500).optional(),
  subject: z.string().max(100),
  type: z.string().max(100).optional(),
  /**
   * The payment request this pays (our till's, `pr_…`). Not Cyclos's: lokapi sends no request id,
   * and Monujo reads only the payee, amount and memos from a till's QR code, so its payment is a
   * plain one; a client that names the request has it settled as our own API does.
   */
  paymentRequest: PaymentRequestId.optional(),
});

/** "a,b", ["a"] or [",b"]: the shapes lokapi sends a date range in. */
function period(p: string | string[] | undefined): { from?: string; to?: string } {
  const text = Array.isArray(p) ? p.join(",") : (p ?? "");
  const [from, to] = text.split(",").map((d) => d.trim());
  const valid = (d: string | undefined) => (d && !Number.isNaN(Date.parse(d)) ? new Date(d).toISOString() : undefined);
  const f = valid(from);
  const t = valid(to);
  return { ...(f ? { from: f } : {}), ...(t ? { to: t } : {}) };
}

/** One of our transactions as Cyclos lists it; top-ups and reconversions come from the system account. */
function cyclosTransaction(t: TransactionView) {
  const system = t.kind !== "payment";
  return {
    id: t.id,
    date: t.date,
    amount: t.amount,
    description: t.description,
    related: { kind: system ? "system" : "user" },
    ...(system ? {} : { relatedUser: { id: ownerOf(t.relatedWalletId), display: t.related } }),
  };
}

export function cyclosRoutes(app: FastifyInstance, deps: AppDeps): void {
  // `deps.features` is read at each use: the association's switches change while it runs.
  const { db, settings } = deps;
  const token = (req: FastifyRequest) => {
    const v = req.headers["session-token"];
    return typeof v === "string" && v.length > 0 && v.length <= 200 ? v : undefined;
  };

  /** The caller's own wallet in the exposed backend; any other owner is "not found". */
  const ownWallet = async (req: FastifyRequest, owner: string): Promise<WalletRow> =>
    ownExposedWallet(db, settings, await memberOf(db, settings, token(req)), owner);

  /** "self" in a payment is the member's one wallet in the exposed backend. */
  const selfWallet = async (req: FastifyRequest) => {
    const memberId = await memberOf(db, settings, token(req));
    const b = await exposedBackend(db, settings);
    const wallet = b ? await firstMemberWallet(db, memberId, b.id, { activeOnly: true }) : null;
    if (!wallet) throw notFound();
    return { memberId, wallet };
  };

  app.get(`/:owner/accounts`, async (req: FastifyRequest<{ Params: { owner: string } }>) => {
    const wallet = await ownWallet(req, req.params.owner);
    const currency = await currencyOf(db, wallet.backend_id);
    const { bal } = await walletBalance(db, wallet.id);
    return [
      {
        id: "main",
        currency: { id: currency.id, name: currency.name, symbol: currency.symbol, suffix: currency.symbol, decimalDigits: 2 },
        status: { balance: bal },
        type: { id: "member", internalName: "member", name: "Member account" },
      },
    ];
  });

  app.get(`/:owner/transactions`, async (req: FastifyRequest<{ Params: { owner: string } }>, reply) => {
    const wallet = await ownWallet(req, req.params.owner);
    const q = parse(TransactionsQuery, query(req));
    const page = await listTransactions(db, wallet.id, { offset: q.page * q.pageSize, limit: q.pageSize, ...period(q.datePeriod) }, settings.associationName);
    // Without this header lokapi's plugin asks for the next page forever.
    void reply.header("X-Has-Next-Page", page.next ? "true" : "false");
    return page.items.map(cyclosTransaction);
  });

  app.get(`/self/payments/data-for-perform`, async (req) => {
    const { wallet } = await selfWallet(req);
    const q = parse(PerformQuery, query(req));
    const to = walletFromIdent(q.to);
    const payee = to ? await getWallet(db, to) : null;
    if (!payee || payee.backend_id !== wallet.backend_id || (payee.role !== "member" && payee.role !== "safe")) throw notFound();
    const currency = await currencyOf(db, wallet.backend_id);
    return {
      paymentTypes: [{ id: "payment", internalName: "payment", name: "Payment", currency: { symbol: currency.symbol, suffix: currency.symbol } }],
    };
  });

  /**
   * A payment. Cyclos has no idempotency key, so lokapi sends none and a retry is a new payment;
   * a client that sends an Idempotency-Key header gets the same protection as our own API. Naming
   * a payment request pays it: marked paid with this payment, in its transaction, the till told.
   */
  app.post(`/self/payments`, async (req, reply) => {
    const { memberId, wallet } = await selfWallet(req);
    const body = parse(PaymentBody, req.body);
    const to = walletFromIdent(body.subject);
    if (!to) throw notFound();
    const header = req.headers["idempotency-key"];
    const key = typeof header === "string" && /^[\w-]{8,100}$/.test(header) ? header : randomUUID();
    const memo = body.description ?? "";
    const t = await transfer(
      db,
      memberId,
      {
        from: wallet.id,
        to,
        parts: [{ account: "main", amount: amountText(body.amount) }],
        senderMemo: memo,
        recipientMemo: memo,
        key,
        ...(body.paymentRequest ? { requestId: body.paymentRequest } : {}),
      },
      { associationName: settings.associationName, features: deps.features },
    );
    const currency = await currencyOf(db, wallet.backend_id);
    const system = t.kind !== "payment";
    void reply.status(201);
    return {
      id: t.id,
      date: t.date,
      amount: t.amount.replace(/^-/, ""),
      description: t.description,
      to: { kind: system ? "system" : "user" },
      ...(system ? {} : { toUser: { id: ownerOf(t.relatedWalletId), display: t.related } }),
      currency: { id: currency.id, name: currency.name, symbol: currency.symbol, suffix: currency.symbol },
    };
  });

  app.all(`/*`, async (req) => {
    await memberOf(db, settings, token(req));
    throw notFound();
  });
}
