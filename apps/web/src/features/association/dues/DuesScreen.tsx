import { useState } from "react";
import { useLingui } from "@lingui/react";
import type { MyDues } from "@mutua/domain";
import { Link } from "../../../lib/router";
import { useFormat } from "../../../lib/format";
import { useRights } from "../../../data/session";
import { toast } from "../../../lib/toast";
import { EmptyState } from "../../../ui/EmptyState";
import { Skeleton } from "../../../ui/Skeleton";
import { CheckIcon } from "../../../ui/icons";
import { OperationCanceled, useUnlock } from "../../wallets";
import { failure, useMyDues, usePayDues } from "./queries";
import { dayName, periodName, statusLabel } from "./words";
import "./dues.css";

type Run = MyDues["runs"][number];

/**
 * The member's dues (/dues): when the next are taken and how much, and each period's, paid,
 * unpaid or waived. Unpaid dues of a device-signed wallet are paid here with one tap (the wallet
 * unlocked, the payment signed on the device); those of a wallet the server holds are taken as
 * soon as it holds the amount.
 */
export function DuesScreen() {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const rights = useRights();
  const dues = useMyDues();
  const d = dues.data;
  return (
    <main className="page dues">
      <header className="page-header">
        <h1>{i18n._("Dues")}</h1>
        {rights.owner && (
          <Link className="button small" to="/dues/manage">
            {i18n._("Manage dues")}
          </Link>
        )}
      </header>
      {dues.isPending && <Skeleton rows={3} className="tx-skeleton" />}
      {d && !d.mode && d.runs.length === 0 && <EmptyState icon={CheckIcon} title={i18n._("The association collects no dues.")} />}
      {d?.mode && d.nextDue && (
        <section className="card dues-next" aria-labelledby="dues-next">
          <h2 id="dues-next">{i18n._("Next dues")}</h2>
          <p className="dues-next-date">{dayName(fmt.dateLocale, d.nextDue)}</p>
          <p>
            {d.mode === "fixed"
              ? d.amount === null
                ? i18n._("Nothing for your account")
                : d.period === "yearly"
                  ? i18n._("{amount} a year", { amount: fmt.money(d.amount, d.currency) })
                  : i18n._("{amount} a month", { amount: fmt.money(d.amount, d.currency) })
              : d.period === "yearly"
                ? i18n._("{rate} % of your balance a year", { rate: d.rate ?? "" })
                : i18n._("{rate} % of your balance a month", { rate: d.rate ?? "" })}
          </p>
        </section>
      )}
      {d && d.runs.length > 0 && (
        <section aria-labelledby="dues-history">
          <h2 id="dues-history" className="grouped-label">
            {i18n._("Your dues")}
          </h2>
          <ul className="dues-list">
            {d.runs.map((r) => (
              <DuesRow key={r.id} run={r} period={d.period} refetch={dues.refetch} />
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}

function DuesRow({ run: r, period, refetch }: { run: Run; period: MyDues["period"]; refetch: () => Promise<{ data?: MyDues | undefined }> }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const { unlockWallet } = useUnlock();
  const payDues = usePayDues();
  const [busy, setBusy] = useState(false);
  const pay = async () => {
    if (!r.pay) return;
    setBusy(true);
    try {
      const key = await unlockWallet(r.walletId);
      // The payment as the server reads it now (its parts as the balance stands), signed on this device.
      const pay = (await refetch()).data?.runs.find((x) => x.id === r.id)?.pay;
      if (!pay) return;
      const signature = (await import("@mutua/wallet")).signMessage(key, pay.message);
      await payDues.mutateAsync({ duesId: r.id, body: { parts: pay.parts, at: pay.at, signature } });
      toast.success(i18n._("Dues paid"));
    } catch (e) {
      if (!(e instanceof OperationCanceled)) toast.error(failure(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="dues-row">
      <span className="dues-row-text">
        <strong>{i18n._("Dues · {period}", { period: periodName(fmt.dateLocale, r.period, period) })}</strong>
        <span className="dues-row-detail">
          {r.settledAt
            ? i18n._("{status} on {date}", { status: statusLabel(i18n, r.status), date: fmt.date(new Date(r.settledAt)) })
            : statusLabel(i18n, r.status)}
          {r.status === "arrears" && !r.pay && ` · ${i18n._("taken as soon as your account holds it")}`}
        </span>
      </span>
      <span className="dues-row-amount">{fmt.money(r.amount, r.currency)}</span>
      {r.pay && (
        <button type="button" className="button primary small" onClick={() => void pay()} disabled={busy}>
          {i18n._("Pay")}
        </button>
      )}
    </li>
  );
}
