import { beforeAll, expect } from "vitest";
import type { SubAccount } from "@mutua/domain";
import { openCustodialWallet, type BackendRow, type WalletStatus } from "../src/services/wallets/wallets";
import {
  Api,
  countMovements,
  createBackend,
  memberToken,
  newKey,
  openTestLedgerWallet,
  seedMember,
  signTransfer,
  topUp,
  walletBalances,
  type SeededMember,
  type TestLedgerWallet,
} from "./helpers";
import { setupServerTest } from "./setup";

/**
 * What the payments' tests (payments.test.ts, payments-signed.test.ts) share: a server, three
 * backends (custodial, a ledger with mutual credit from -10.00 to +20.00, and a custodial one
 * elsewhere), members with a wallet, and the payments they make.
 */

export interface Person {
  member: SeededMember;
  api: Api;
  /** The member's custodial wallet in `custodial`, when asked for. */
  wallet: string;
}

export interface LedgerPerson {
  member: SeededMember;
  api: Api;
  wallet: TestLedgerWallet;
  id: string;
}

export function paymentsSuite() {
  const t = setupServerTest();
  const backends = {} as { custodial: BackendRow; ledger: BackendRow; elsewhere: BackendRow };
  beforeAll(async () => {
    backends.custodial = await createBackend(t.db, { kind: "custodial" });
    // Mutual credit from -10.00 to +20.00.
    backends.ledger = await createBackend(t.db, { kind: "ledger", cmFloor: "-10.00", cmCeiling: "20.00" });
    backends.elsewhere = await createBackend(t.db, { kind: "custodial" });
  });

  let names = 0;
  async function person(opts: { firstName?: string; backend?: BackendRow; status?: WalletStatus; balance?: string } = {}): Promise<Person> {
    const member = await seedMember(t.db, { firstName: opts.firstName ?? `P${++names}` });
    const wallet = await openCustodialWallet(t.db, opts.backend ?? backends.custodial, member.id, opts.status ?? "active");
    if (opts.balance) await topUp(t.db, wallet, opts.balance);
    return { member, wallet, api: new Api(t.server.baseUrl, await memberToken(t.db, member.id)) };
  }

  async function ledgerPerson(opts: { nant?: string; status?: WalletStatus } = {}): Promise<LedgerPerson> {
    const member = await seedMember(t.db, { firstName: `L${++names}` });
    const wallet = await openTestLedgerWallet(t.db, backends.ledger, member.id, opts.status ?? "active");
    if (opts.nant) await topUp(t.db, wallet.id, opts.nant, "nant");
    return { member, wallet, id: wallet.id, api: new Api(t.server.baseUrl, await memberToken(t.db, member.id)) };
  }

  /** Movements and balances of the given wallets: what "nothing moves" compares. */
  async function snapshot(...wallets: string[]) {
    return { movements: await countMovements(t.db), balances: await Promise.all(wallets.map((w) => walletBalances(t.db, w))) };
  }

  const pay = (from: Person, to: string, amount: string, extra: { key?: string; senderMemo?: string; recipientMemo?: string } = {}) =>
    from.api.call("transfer", { body: { from: from.wallet, to, parts: [{ account: "main", amount }], key: extra.key ?? newKey(), ...extra } });

  const signedPay = (
    from: LedgerPerson,
    to: string,
    parts: { account: SubAccount; amount: string }[],
    extra: { key?: string; senderMemo?: string; recipientMemo?: string } = {},
  ) => from.api.call("transfer", { body: signTransfer(from.wallet.key, { from: from.id, to, parts, ...extra }) });

  /** A transfer's answer, built from what the payment knew (services/ledger/transactions.ts sentView), is the transaction as the ledger lists it. */
  async function expectAnsweredAsListed(api: Api, walletId: string, answer: { id: string }) {
    const listed = await api.call("getTransaction", { params: { walletId, transactionId: answer.id } });
    expect(listed.status).toBe(200);
    expect(answer).toEqual(listed.json);
  }

  return { t, backends, person, ledgerPerson, snapshot, pay, signedPay, expectAnsweredAsListed };
}

export const errorOf = (code: string, message: string) => ({ error: expect.objectContaining({ code, message }) });
