import type { FastifyInstance } from "fastify";
import type { Deps } from "../deps";
import { operation } from "../http/contract";
import { notFound } from "../services/platform/errors";
import { listAccounts, walletBalance } from "../services/wallets/accounts";
import { listTransactions, transactionByPublicId } from "../services/ledger/transactions";
import { accountSummary } from "../services/wallets/account-summary";
import { listSales } from "../services/shops/sales";
import { tillWallet } from "../services/shops/tills";
import { getOwnWallet } from "../services/wallets/wallets";
import { createUserAccount, registerWallet } from "../services/wallets/create-wallet";

export function accountRoutes(app: FastifyInstance, deps: Deps): void {
  const { db, settings } = deps;
  const own = async (memberId: bigint, walletId: string) => {
    const w = await getOwnWallet(db, memberId, walletId);
    if (!w) throw notFound();
    return w;
  };

  operation(app, deps, "createUserAccount", async ({ memberId, body }) => createUserAccount(db, memberId, body.backendId, body.keystore, body));
  operation(app, deps, "registerWallet", async ({ memberId, body }) => registerWallet(db, memberId, body));
  operation(app, deps, "getAccounts", async ({ memberId }) => listAccounts(db, memberId, settings.associationName));
  operation(app, deps, "getBalance", async ({ memberId, params }) => walletBalance(db, (await own(memberId, params.walletId)).id));
  operation(app, deps, "getKeystore", async ({ memberId, params }) => {
    const w = await own(memberId, params.walletId);
    if (!w.keystore) throw notFound();
    return w.keystore;
  });
  operation(app, deps, "getTransactions", async ({ memberId, params, query }) =>
    listTransactions(db, (await own(memberId, params.walletId)).id, query, settings.associationName),
  );
  operation(app, deps, "getTransaction", async ({ memberId, params }) => {
    const tx = await transactionByPublicId(db, (await own(memberId, params.walletId)).id, params.transactionId, settings.associationName);
    if (!tx) throw notFound();
    return tx;
  });
  operation(app, deps, "getSales", async ({ memberId, params, query }) => {
    const till = await tillWallet(db, memberId, params.walletId);
    return { currency: till.currency, shopName: till.shopName, ...(await listSales(db, till.id, query, settings.associationName)) };
  });
  operation(app, deps, "getAccountSummary", async ({ memberId, params, query }) => accountSummary(db, (await own(memberId, params.walletId)).id, query));
}
