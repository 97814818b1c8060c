import { useId, useState } from "react";
import { Link, useSearchParams } from "../../../lib/router";
import { useLingui } from "@lingui/react";
import { format, isSameDay, isValid, parse } from "date-fns";
import { M, salesCsv, salesCsvFileName, type Sale } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { deliverFile } from "../../../lib/deliver-file";
import { useFormat } from "../../../lib/format";
import { toast } from "../../../lib/toast";
import { Icon, PreviousIcon, ReceivedIcon, ShopIcon } from "../../../ui/icons";
import { EmptyState } from "../../../ui/EmptyState";
import { Skeleton } from "../../../ui/Skeleton";
import { NameHint } from "../../members";
import { fetchAllSales, today, useSales, useTillWallets, type DayRange, type TillWalletChoice } from "./queries";
import "../../../ui/movements.css";
import "./till.css";

const DAY = "yyyy-MM-dd";
/** A date field's value as the shop's local day (a plain `new Date("2026-11-25")` would be UTC's). */
const readDay = (value: string): Date | null => {
  const d = parse(value, DAY, new Date());
  return isValid(d) ? d : null;
};

/**
 * A till's sales: today's by default, or any day or range the shop picks; the count
 * and the total are the server's over the whole range, which are the ledger's, and the CSV holds
 * exactly those sales.
 */
export function SalesScreen() {
  const { i18n } = useLingui();
  const { wallets, isPending, isSuccess } = useTillWallets();
  const [params] = useSearchParams();
  const wallet = wallets.find((w) => w.id === params.get("wallet")) ?? wallets[0];
  return (
    <main className="page till sales">
      <header className="page-header">
        <h1>{i18n._("Sales")}</h1>
        <Link className="button small" to={wallet ? `/receive?${new URLSearchParams({ wallet: wallet.id })}` : "/receive"}>
          <Icon node={PreviousIcon} />
          {i18n._("Back to the till")}
        </Link>
      </header>
      {isPending && <Skeleton rows={4} className="tx-skeleton" />}
      {isSuccess && !wallet && <p className="notice info">{i18n._("You have no active account to receive payments into.")}</p>}
      {wallet && <Sales key={wallet.id} wallet={wallet} />}
    </main>
  );
}

function Sales({ wallet }: { wallet: TillWalletChoice }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const client = useClient();
  const ids = useId();
  const [range, setRange] = useState<DayRange>(today);
  // No sales are to come after today: the pickers stop there (read once: a screen left open past midnight keeps it).
  const [lastDay] = useState(() => format(new Date(), DAY));
  const [exporting, setExporting] = useState(false);
  const sales = useSales(wallet.id, range);
  const first = sales.data?.pages[0];
  const items = sales.data?.pages.flatMap((p) => p.items) ?? [];
  const oneDay = isSameDay(range.start, range.end);

  const setDay = (which: keyof DayRange, value: string) => {
    const day = readDay(value);
    if (!day) return;
    // A start after the end (or the reverse) takes the other along: the range is never backwards.
    setRange((r) => {
      const next = { ...r, [which]: day };
      return next.start > next.end ? { start: day, end: day } : next;
    });
  };

  const download = async () => {
    setExporting(true);
    try {
      let text: string;
      try {
        const all = await fetchAllSales(client, wallet.id, range);
        text = salesCsv(
          all.shopName,
          all.sales.map((s) => ({ ...s, date: new Date(s.date) })),
          {
            source: i18n._("Source"),
            target: i18n._("Target"),
            amount: i18n._("Amount"),
            date: i18n._("Date"),
            description: i18n._("Description"),
            request: i18n._("Payment request"),
          },
        );
      } catch {
        toast.error({ id: M.csvFailed });
        return;
      }
      try {
        const how = await deliverFile(text, salesCsvFileName(range), "text/csv");
        toast.success(how === "shared" ? i18n._("Sales shared") : i18n._("Sales downloaded"));
      } catch (e) {
        if ((e as Error).name !== "AbortError") toast.error(i18n._("The sales could not be downloaded. Please try again."));
      }
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <section className="card sales-range" aria-label={i18n._("Period")}>
        <div className="field">
          <label htmlFor={`${ids}-from`}>{i18n._("From")}</label>
          <input id={`${ids}-from`} type="date" value={format(range.start, DAY)} max={lastDay} onChange={(e) => setDay("start", e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-to`}>{i18n._("To")}</label>
          <input id={`${ids}-to`} type="date" value={format(range.end, DAY)} max={lastDay} onChange={(e) => setDay("end", e.target.value)} />
        </div>
      </section>
      <section className="card sales-totals" aria-busy={sales.isFetching}>
        {first ? (
          <>
            <p className="till-amount" aria-label={i18n._("Total")}>
              {fmt.money(first.total, first.currency)}
            </p>
            <p className="sales-count">{i18n._("Sales: {count}", { count: first.count })}</p>
          </>
        ) : (
          sales.isPending && <Skeleton rows={1} className="sales-skeleton" />
        )}
        {sales.isError && (
          <p className="notice error" role="alert">
            {i18n._("The sales could not be loaded. Please try again.")}
          </p>
        )}
        <button
          type="button"
          className="button primary wide"
          onClick={() => void download()}
          disabled={!first || first.count === 0 || exporting}
          aria-busy={exporting}
        >
          {i18n._("Download CSV")}
        </button>
      </section>
      <section className="card" aria-label={i18n._("Sales")}>
        {first && items.length === 0 && (
          <EmptyState
            icon={ShopIcon}
            action={
              <Link className="button" to="/receive">
                {i18n._("Receive a payment")}
              </Link>
            }
          >
            {oneDay ? i18n._("No sales on this day.") : i18n._("No sales in this period.")}
          </EmptyState>
        )}
        {items.length > 0 && (
          <ul className="tx-list sales-list">
            {items.map((s) => (
              <SaleRow key={s.transactionId} sale={s} currency={first!.currency} withDay={!oneDay} />
            ))}
          </ul>
        )}
        {sales.hasNextPage && (
          <button type="button" className="button small" onClick={() => void sales.fetchNextPage()} disabled={sales.isFetchingNextPage}>
            {i18n._("More")}
          </button>
        )}
      </section>
    </>
  );
}

function SaleRow({ sale, currency, withDay }: { sale: Sale; currency: string; withDay: boolean }) {
  const fmt = useFormat();
  const date = new Date(sale.date);
  // The transaction list's row (styles.css .tx), not a button: the sale is all there is to see. A
  // sign rather than the payer's initials: the avatar module shared with the dashboard would split
  // out of the dashboard's chunk (docs/performance.md).
  return (
    <li className="tx sale">
      <span className="avatar avatar-x" aria-hidden="true">
        <Icon node={ReceivedIcon} />
      </span>
      <span className="tx-related">
        {sale.payerName} <NameHint hint={sale.payerHint} />
      </span>
      <span className="tx-amount positive">+{fmt.money(sale.amount, currency)}</span>
      {sale.memo && <span className="tx-memo">{sale.memo}</span>}
      <time className="tx-date" dateTime={sale.date}>
        {withDay ? `${fmt.date(date)} · ${fmt.time(date)}` : fmt.time(date)}
      </time>
    </li>
  );
}
