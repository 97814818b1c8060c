import { canonicalTransferMessage, ErrorCode, formatCents, M, rateText, splitPayment, SM, type BodyOf, type DuesStatus, type SubAccount } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import { postMovementTx, retriedWhenAsked } from "../ledger/ledger";
import { ensureDuesWallet, getBackend } from "../wallets/wallets";
import { notFound, Refusal, invalid } from "../platform/errors";
import { requireSigner, sentCents, signatureRefusal } from "../payments/payments";
import { duesKey } from "./dues-collect";
import { firstPeriod, readPlan } from "./dues-plan";
import { associationToday } from "./dues-zone";

/** A member's own dues: what the Dues screen shows, and the one-tap payment of a device-signed wallet's. */

interface RunRow {
  id: bigint;
  public_id: string;
  member_id: bigint;
  period: string;
  amount: bigint;
  symbol: string;
  status: DuesStatus;
  wallet_id: string;
  backend_id: string;
  address: string | null;
  memo: string;
  transaction_id: string | null;
  settled_at: Date | null;
}

const RUNS = `
  SELECT r.id, r.public_id, r.member_id, r.period::text, r.amount, c.symbol, r.status, r.wallet_id, w.backend_id, w.address, r.memo,
         mv.public_id AS transaction_id, r.settled_at
    FROM dues_runs r JOIN wallets w ON w.id = r.wallet_id JOIN backends b ON b.id = w.backend_id
    JOIN currencies c ON c.id = b.currency_id LEFT JOIN movements mv ON mv.id = r.movement_id`;

/** How a device-signed wallet pays a period: its parts as the balance stands (the ledger's split), to the dues wallet. */
async function payment(db: Queryable, r: RunRow) {
  if (r.status !== "arrears" || r.address === null) return null;
  const backend = (await getBackend(db, r.backend_id))!;
  const to = `${backend.kind}:${backend.name}.dues`;
  const { rows } = await db.query<{ kind: SubAccount; balance: bigint; floor: bigint | null }>(
    "SELECT kind, balance, floor FROM accounts WHERE wallet_id = $1",
    [r.wallet_id],
  );
  const of = (k: SubAccount) => rows.find((a) => a.kind === k);
  const split = splitPayment(
    r.amount,
    { nant: of("nant")?.balance ?? 0n, cm: of("cm")?.balance ?? 0n, cmFloor: of("cm")?.floor ?? 0n },
    { cm: 0n, cmCeiling: null },
  );
  // Short of money: the whole from pledged money, which the ledger will refuse in its words until it arrives.
  const parts = split.ok
    ? [
        { account: "cm" as const, amount: split.split.cm },
        { account: "nant" as const, amount: split.split.nant },
      ]
    : [{ account: "nant" as const, amount: r.amount }];
  const payment = {
    to,
    parts: parts.filter((p) => p.amount > 0n).map((p) => ({ account: p.account, amount: formatCents(p.amount) })),
    senderMemo: r.memo,
    recipientMemo: r.memo,
    key: duesKey(r.member_id, r.period),
    at: new Date().toISOString(),
  };
  // The message the device signs, made here once: the app signs it as it is (the server checks it again, payDues).
  return { ...payment, message: canonicalTransferMessage({ from: r.wallet_id, ...payment }) };
}

async function runView(db: Queryable, r: RunRow) {
  return {
    id: r.public_id,
    period: r.period,
    amount: formatCents(r.amount),
    currency: r.symbol,
    status: r.status,
    walletId: r.wallet_id,
    transactionId: r.transaction_id,
    settledAt: r.settled_at?.toISOString() ?? null,
    pay: await payment(db, r),
  };
}

/** The member's next collection date, what it takes, and their periods, newest first (the last 24). */
export async function myDues(db: Db, me: bigint, fallbackZone: string) {
  const plan = await readPlan(db);
  const { rows: runs } = await db.query<RunRow>(`${RUNS} WHERE r.member_id = $1 ORDER BY r.period DESC LIMIT 24`, [me]);
  const { rows: mine } = await db.query<{ next_due: string | null; business: boolean; symbol: string | null }>(
    `SELECT (SELECT next_due::text FROM dues_members WHERE member_id = $1) AS next_due,
            (SELECT c.symbol FROM association a JOIN currencies c ON c.id = a.currency_id) AS symbol,
            EXISTS (SELECT 1 FROM businesses WHERE member_id = $1 AND status = 'approved') AS business`,
    [me],
  );
  const zone = plan ? await associationToday(db, fallbackZone) : null;
  const amount = plan?.mode === "fixed" ? (mine[0]!.business ? plan.business_amount : plan.member_amount) : null;
  return {
    nextDue: plan ? (mine[0]!.next_due ?? (zone ? firstPeriod(plan, zone.today).date : null)) : null,
    mode: plan?.mode ?? null,
    period: plan?.period ?? null,
    amount: amount === null ? null : formatCents(amount),
    rate: plan?.rate_millionths ? rateText(plan.rate_millionths) : null,
    currency: mine[0]!.symbol ?? "",
    runs: await Promise.all(runs.map((r) => runView(db, r))),
  };
}

/**
 * The member pays a period's dues from their device-signed wallet: the payment `getMyDues` said,
 * signed on the device within the last ten minutes. In one transaction the period is locked,
 * found unpaid, the movement posted (the ledger's floors and key) and the period marked paid; a
 * refusal writes nothing. Two taps pay once: the second finds it paid.
 */
export async function payDues(db: Db, me: bigint, duesId: string, body: BodyOf<"payDues">, now = new Date()) {
  return retriedWhenAsked(() =>
    inTransaction(db, async (tx) => {
      const { rows } = await tx.query<RunRow>(`${RUNS} WHERE r.public_id = $1 AND r.member_id = $2 FOR UPDATE OF r`, [duesId, me]);
      const r = rows[0];
      if (!r) throw notFound();
      if (r.status !== "arrears") throw new Refusal(ErrorCode.stateConflict, { id: SM.duesSettled });
      if (r.address === null) throw new Refusal(ErrorCode.validation, { id: SM.duesTakenByServer });
      const parts = body.parts.map((p) => ({ account: p.account, amount: sentCents(p.amount) }));
      if (new Set(parts.map((p) => p.account)).size !== parts.length) throw new Refusal(ErrorCode.validation, { id: M.invalidRequest });
      if (parts.reduce((s, p) => s + p.amount, 0n) !== r.amount) throw invalid({ parts: { id: M.invalidRequest } });
      const unsigned = signatureRefusal(body, now);
      if (unsigned) throw unsigned;
      const backend = (await getBackend(tx, r.backend_id))!;
      const to = await ensureDuesWallet(tx, backend);
      const key = duesKey(r.member_id, r.period);
      const signedMessage = canonicalTransferMessage({
        from: r.wallet_id,
        to,
        parts: body.parts,
        senderMemo: r.memo,
        recipientMemo: r.memo,
        key,
        at: body.at,
      });
      requireSigner(signedMessage, body.signature, r.address);
      const { movement } = await postMovementTx(tx, {
        kind: "dues",
        payerWalletId: r.wallet_id,
        payeeWalletId: to,
        parts,
        senderMemo: r.memo,
        recipientMemo: r.memo,
        idempotencyKey: key,
        initiatedBy: me,
        signedMessage,
        signature: body.signature,
      });
      await tx.query("UPDATE dues_runs SET status = 'paid', movement_id = $2, settled_at = now(), next_try = NULL WHERE id = $1", [r.id, movement.id]);
      const { rows: after } = await tx.query<RunRow>(`${RUNS} WHERE r.id = $1`, [r.id]);
      return runView(tx, after[0]!);
    }),
  );
}
