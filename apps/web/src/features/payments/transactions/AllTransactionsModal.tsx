import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { DayPicker, type DateRange } from "react-day-picker";
import { enUS, fr } from "react-day-picker/locale";
import "react-day-picker/style.css";
import { useLingui } from "@lingui/react";
import { LIMITS, M, ownerName, shouldFilterTransactions, type AccountEntry, type Recipient, type TransactionView } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { Dialog } from "../../../ui/Dialog";
import { CloseIcon, ExpandIcon, Icon, NextIcon, PreviousIcon } from "../../../ui/icons";
import { toast } from "../../../lib/toast";
import { loadMoreNearBottom } from "../../../ui/scroll";
import { useFormat } from "../../../lib/format";
import { useDebounced } from "../../../lib/debounce";
import { accountLabel } from "../../wallets";
import { useMe } from "../../../data/session";
import { useRecipientSearch } from "../../members";
import { TransactionItem } from "./TransactionItem";
import type { TransactionFilter } from "../../../data/transactions";
import { useTransactionPages } from "./pages";
import { periodOf, shiftPeriod, wholeDays, type PeriodUnit, type Range } from "./period";
import { buildCsv, deliverCsv, fetchAll } from "./export";
import "../../../ui/movements.css";
import "./filters.css";
import "../../../ui/switch.css";

interface Props {
  account: AccountEntry;
  onClose: () => void;
  onOpen: (tx: TransactionView) => void;
}

/** Typed text is sent once the member pauses. */
const TYPING_PAUSE_MS = 300;

/**
 * docs/spec.md §2 "All transactions": time span, recipient and text search filters (applied by the
 * server), paging on scroll, CSV export. The list and the export ask with the same filter, so the
 * file holds exactly the rows the filters select.
 */
export default function AllTransactionsModal({ account, onClose, onOpen }: Props) {
  const { i18n } = useLingui();
  const client = useClient();
  const me = useMe();
  const [range, setRange] = useState<Range | null>(null);
  const [counterparty, setCounterparty] = useState<Recipient | null>(null);
  const [recipientText, setRecipientText] = useState("");
  const [searchText, setSearchText] = useState("");
  const typedName = useDebounced(shouldFilterTransactions(recipientText) ? recipientText.trim() : "", TYPING_PAUSE_MS);
  const search = useDebounced(searchText.trim(), TYPING_PAUSE_MS);
  const [exporting, setExporting] = useState(false);
  // On a phone the list comes first, the filters behind their button (filters.css shows them wider).
  const [filtersShown, setFiltersShown] = useState(false);
  const filtersId = useId();
  const filter: TransactionFilter = {
    ...(range ? { from: range.start.toISOString(), to: range.end.toISOString() } : {}),
    // A picked recipient, else the name as typed.
    ...(counterparty ? { counterparty: counterparty.walletId } : typedName ? { counterpartyName: typedName } : {}),
    ...(search ? { search } : {}),
  };
  // The filters that select rows now: a time span, a recipient (picked or typed), a search.
  const activeFilters = [range, counterparty ?? typedName, search].filter(Boolean).length;
  const pages = useTransactionPages(account.id, filter);
  const items = pages.data?.pages.flatMap((p) => p.items) ?? [];
  useEffect(() => {
    if (pages.isError) toast.error({ id: M.transactionListFailed });
  }, [pages.isError]);

  const exportCsv = async () => {
    setExporting(true);
    try {
      let txs: TransactionView[];
      try {
        txs = await fetchAll(client, account.id, filter);
      } catch {
        toast.error({ id: M.transactionListFailed });
        return;
      }
      let csv;
      try {
        csv = buildCsv(
          me.data?.name ?? "",
          txs,
          { source: i18n._("Source"), target: i18n._("Target"), amount: i18n._("Amount"), date: i18n._("Date"), description: i18n._("Description") },
          range,
        );
      } catch {
        toast.error({ id: M.csvFailed });
        return;
      }
      try {
        const how = await deliverCsv(csv.text, csv.fileName);
        toast.success({ id: how === "shared" ? M.csvShared : M.csvDownloaded });
      } catch (e) {
        if ((e as Error).name !== "AbortError") toast.error({ id: M.csvDownloadFailed });
      }
    } finally {
      setExporting(false);
    }
  };

  return (
    <Dialog
      title={i18n._("All transactions")}
      onClose={onClose}
      className="wide"
      footer={
        <button type="button" className="button primary" onClick={() => void exportCsv()} disabled={exporting} aria-busy={exporting}>
          {i18n._("Download")}
        </button>
      }
    >
      <p className="account-card">{accountLabel(i18n, account)}</p>
      <button
        type="button"
        className="button small filters-toggle"
        aria-expanded={filtersShown}
        aria-controls={filtersId}
        // A plain placeholder: English says "active" of one and of many, so the bundled English
        // catalog needs no plural for it (the French catalog has its own).
        aria-label={activeFilters ? i18n._("Filters, {count} active", { count: activeFilters }) : undefined}
        onClick={() => setFiltersShown((s) => !s)}
      >
        {i18n._("Filters")}
        {activeFilters > 0 && <span className="badge">{activeFilters}</span>}
        <Icon node={ExpandIcon} />
      </button>
      <div id={filtersId} className={filtersShown ? "tx-filters" : "tx-filters collapsed"}>
        <PeriodFilter range={range} onChange={setRange} />
        <RecipientFilter backendId={account.backendId} value={counterparty} onChange={setCounterparty} text={recipientText} onText={setRecipientText} />
        <div className="field">
          <label htmlFor="tx-search">{i18n._("Search")}</label>
          <input
            id="tx-search"
            type="search"
            autoComplete="off"
            enterKeyHint="search"
            maxLength={LIMITS.search}
            placeholder={i18n._("Name, memo or amount")}
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
          />
        </div>
      </div>
      <ul className="tx-list scroll" aria-busy={pages.isFetching} onScroll={loadMoreNearBottom(500, pages)}>
        {items.map((tx) => (
          <TransactionItem key={tx.id} tx={tx} onOpen={onOpen} />
        ))}
        {pages.isSuccess && items.length === 0 && <li className="empty">{i18n._("No transactions found")}</li>}
      </ul>
      {pages.hasNextPage && (
        <button type="button" className="button small" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
          {i18n._("More")}
        </button>
      )}
    </Dialog>
  );
}

function PeriodFilter({ range, onChange }: { range: Range | null; onChange: (r: Range | null) => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const locale = i18n.locale.startsWith("fr") ? fr : enUS;
  const [unit, setUnit] = useState<PeriodUnit | null>(null);
  const [picking, setPicking] = useState(false);
  const chooseDates = useRef<HTMLButtonElement>(null);
  const [picked, setPicked] = useState<DateRange | undefined>();
  // Today, as of the filter's opening: the limit of the calendar and of "next period".
  const [now] = useState(() => new Date());
  const units: [PeriodUnit, string][] = [
    ["day", i18n._("Day")],
    ["week", i18n._("Week")],
    ["month", i18n._("Month")],
    ["year", i18n._("Year")],
  ];
  // No span chosen: the pressed "All dates" button already says so.
  const label = range ? `${fmt.date(range.start)} – ${fmt.date(range.end)}` : null;
  const atNow = range && unit ? shiftPeriod(unit, range, 1, locale).start > now : true;
  return (
    <fieldset className="period">
      <legend>{i18n._("Period")}</legend>
      <div className="segmented">
        <button type="button" className={range ? "button small" : "button small primary"} aria-pressed={!range} onClick={() => (setUnit(null), onChange(null))}>
          {i18n._("All dates")}
        </button>
        {units.map(([u, text]) => (
          <button
            key={u}
            type="button"
            className={unit === u ? "button small primary" : "button small"}
            aria-pressed={unit === u}
            onClick={() => {
              setUnit(u);
              setPicking(false);
              onChange(periodOf(u, new Date(), locale));
            }}
          >
            {text}
          </button>
        ))}
        <button
          ref={chooseDates}
          type="button"
          className={picking ? "button small primary" : "button small"}
          aria-expanded={picking}
          onClick={() => setPicking((p) => !p)}
        >
          {i18n._("Choose dates")}
        </button>
      </div>
      <div className="period-nav">
        {unit && range && (
          <button type="button" className="icon-button" aria-label={i18n._("Previous period")} onClick={() => onChange(shiftPeriod(unit, range, -1, locale))}>
            <Icon node={PreviousIcon} />
          </button>
        )}
        <span className="period-label" aria-live="polite">
          {label}
        </span>
        {unit && range && !atNow && (
          <button type="button" className="icon-button" aria-label={i18n._("Next period")} onClick={() => onChange(shiftPeriod(unit, range, 1, locale))}>
            <Icon node={NextIcon} />
          </button>
        )}
      </div>
      {picking && (
        <div
          className="picker"
          onKeyDown={(e) => {
            // Escape closes the calendar, not History around it: the browser's own close request is
            // the key's default, which the dialog would take.
            if (e.key !== "Escape") return;
            e.preventDefault();
            e.stopPropagation();
            setPicking(false);
            chooseDates.current?.focus();
          }}
        >
          {/* resetOnSelect: a tap after a whole range starts a new one, instead of stretching the last. */}
          <DayPicker
            mode="range"
            resetOnSelect
            locale={locale}
            selected={picked}
            onSelect={setPicked}
            disabled={{ after: now }}
            endMonth={now}
            defaultMonth={picked?.from ?? now}
          />
          <button
            type="button"
            className="button small primary"
            disabled={!picked?.from}
            onClick={() => {
              if (!picked?.from) return;
              // Kept whole, so that the next tap (with resetOnSelect) starts a new range rather than ending this one.
              const chosen = { from: picked.from, to: picked.to ?? picked.from };
              setPicked(chosen);
              setUnit(null);
              setPicking(false);
              onChange(wholeDays(chosen.from, chosen.to));
            }}
          >
            {i18n._("Confirm")}
          </button>
        </div>
      )}
    </fieldset>
  );
}

/** A recipient picked from the suggestions, or the text typed (which filters by name as it is). */
function RecipientFilter({
  backendId,
  value,
  onChange,
  text: q,
  onText: setQ,
}: {
  backendId: string;
  value: Recipient | null;
  onChange: (r: Recipient | null) => void;
  text: string;
  onText: (text: string) => void;
}) {
  const { i18n } = useLingui();
  const active = shouldFilterTransactions(q) && q.trim() !== "";
  const search = useRecipientSearch(active ? q : "", backendId);
  const rows = active ? (search.data?.pages.flatMap((p) => p.rows) ?? []) : [];
  const open = rows.length > 0;
  const ids = useId();
  // The field announces its list as a combobox does, so the arrow keys reach the names as well as Tab.
  const arrows = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = ({ ArrowDown: 1, ArrowUp: -1 } as Record<string, number | undefined>)[e.key];
    if (!step) return;
    const stops = [...e.currentTarget.querySelectorAll<HTMLElement>("#tx-recipient, .suggestions button")];
    const to = stops[stops.indexOf(document.activeElement as HTMLElement) + step];
    if (to) {
      e.preventDefault();
      to.focus();
    }
  };
  return (
    <div className="field recipient-filter" onKeyDown={arrows}>
      <label id={`${ids}-label`} htmlFor="tx-recipient">
        {i18n._("Recipient")}
      </label>
      {value ? (
        <div className="chip">
          <span title={value.name}>{ownerName(value.name)}</span>
          <button type="button" className="icon-button" aria-label={i18n._("All recipient")} onClick={() => onChange(null)}>
            <Icon node={CloseIcon} />
          </button>
        </div>
      ) : (
        <>
          <input
            id="tx-recipient"
            type="search"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={open}
            aria-controls={open ? `${ids}-list` : undefined}
            autoComplete="off"
            maxLength={LIMITS.search}
            placeholder={i18n._("All recipient")}
            value={q}
            onChange={(e) => setQ(e.target.value)}
          />
          {open && (
            <ul id={`${ids}-list`} className="suggestions" aria-labelledby={`${ids}-label`}>
              {rows.map((r) => (
                <li key={r.walletId}>
                  <button
                    type="button"
                    onClick={() => {
                      onChange(r);
                      setQ("");
                    }}
                  >
                    {r.name}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
