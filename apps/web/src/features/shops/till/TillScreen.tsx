import { useEffect, useId, useRef, type FormEvent } from "react";
import { useLingui } from "@lingui/react";
import { Link, useSearchParams } from "../../../lib/router";
import { encodeQrPayload, paymentLink, type PaymentRequestView } from "@mutua/domain";
import { useFormat } from "../../../lib/format";
import { tr } from "../../../lib/i18n";
import { toast } from "../../../lib/toast";
import { BackspaceIcon, ExitFullScreenIcon, FullScreenIcon, Icon, NextIcon, PaidIcon } from "../../../ui/icons";
import { Skeleton } from "../../../ui/Skeleton";
import { QrImage } from "../../../ui/QrImage";
import { NameHint } from "../../members";
import { useFullScreen, useKeepScreenOn } from "./counter-screen";
import { KEYPAD_ROWS, keyOf, type KeypadKey } from "./keypad";
import { useTillWallets, useTodaysTotals, type TillWalletChoice } from "./queries";
import { EXPIRY_CHOICES, useTill } from "./useTill";
import "../../../ui/movements.css";
import "./till.css";

/**
 * The till: the shop types the amount, the customer scans the code, and the screen
 * turns to "Paid" with the customer's name the moment the payment commits. Built to stand on a
 * counter: large keys and code, the screen kept on, full screen where the browser allows.
 */
export function TillScreen() {
  const { i18n } = useLingui();
  const { wallets, isPending, isSuccess } = useTillWallets();
  // The wallet is in the address (?wallet=…), so the sales screen and a reload keep it.
  const [params, setParams] = useSearchParams();
  const wallet = wallets.find((w) => w.id === params.get("wallet")) ?? wallets[0];
  const fullScreen = useFullScreen();
  useKeepScreenOn();

  return (
    <main className="page till">
      <header className="page-header">
        <h1>{i18n._("Receive payments")}</h1>
        {fullScreen && (
          <button
            type="button"
            className="icon-button"
            aria-pressed={fullScreen.on}
            aria-label={fullScreen.on ? i18n._("Leave full screen") : i18n._("Full screen")}
            onClick={fullScreen.toggle}
          >
            <Icon node={fullScreen.on ? ExitFullScreenIcon : FullScreenIcon} />
          </button>
        )}
      </header>
      {isPending && <Skeleton rows={4} className="till-skeleton" />}
      {isSuccess && !wallet && <p className="notice info">{i18n._("You have no active account to receive payments into.")}</p>}
      {wallet && (
        <>
          <TodaysSales wallet={wallet} />
          <Till key={wallet.id} wallet={wallet} wallets={wallets} onWallet={(id) => setParams({ wallet: id }, { replace: true })} />
        </>
      )}
    </main>
  );
}

/** Today's count and total, the way to the day's sales: where the shop checks the till at closing. */
function TodaysSales({ wallet }: { wallet: TillWalletChoice }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const totals = useTodaysTotals(wallet.id).data;
  return (
    <Link className="till-today" to={`/receive/sales?${new URLSearchParams({ wallet: wallet.id })}`}>
      {totals
        ? i18n._("Today: {count, plural, one {# sale} other {# sales}} · {total}", { count: totals.count, total: fmt.money(totals.total, totals.currency) })
        : i18n._("Today's sales")}
      <Icon node={NextIcon} />
    </Link>
  );
}

function Till({ wallet, wallets, onWallet }: { wallet: TillWalletChoice; wallets: TillWalletChoice[]; onWallet: (id: string) => void }) {
  const { i18n } = useLingui();
  const till = useTill(wallet.id, { cashier: wallet.cashier });
  const { view } = till;

  const ask = async () => {
    const r = await till.ask();
    if (!r.ok) toast.error(r.error ?? i18n._("The payment request could not be made. Please try again."));
  };

  // A frozen till shows no code: every customer's payment would be refused.
  if (wallet.frozen)
    return (
      <section className="card till-keypad">
        <WalletChoice wallet={wallet} wallets={wallets} onWallet={onWallet} />
        <p className="notice error" role="status">
          {i18n._("This account is frozen: it cannot receive payments until the association unfreezes it.")}
        </p>
      </section>
    );
  if (view.step === "keypad") return <KeypadView till={till} wallet={wallet} wallets={wallets} onWallet={onWallet} onAsk={() => void ask()} />;
  if (view.step === "waiting")
    return (
      <WaitingView
        request={view.request}
        secondsLeft={view.secondsLeft}
        cancelling={till.cancelling}
        onCancel={async () => {
          // Refused when the customer paid meanwhile: the screen then shows the payment.
          const r = await till.cancel();
          if (!r.ok && !r.paid) toast.error(i18n._("The request could not be cancelled. Please try again."));
        }}
      />
    );
  if (view.step === "paid") return <PaidView request={view.request} onNext={till.newSale} />;
  return <ClosedView request={view.request} asking={till.asking} onAskAgain={() => void ask()} onNext={till.newSale} />;
}

type TillState = ReturnType<typeof useTill>;

/** Which account the till takes payments into: a choice when the member runs several. */
function WalletChoice({ wallet, wallets, onWallet }: { wallet: TillWalletChoice; wallets: TillWalletChoice[]; onWallet: (id: string) => void }) {
  const { i18n } = useLingui();
  const id = useId();
  if (wallets.length < 2) return <p className="till-wallet">{i18n._("Into {account}", { account: wallet.label })}</p>;
  return (
    <div className="field">
      <label htmlFor={id}>{i18n._("Into")}</label>
      <select id={id} value={wallet.id} onChange={(e) => onWallet(e.target.value)}>
        {wallets.map((w) => (
          <option key={w.id} value={w.id}>
            {w.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function KeypadView({
  till,
  wallet,
  wallets,
  onWallet,
  onAsk,
}: {
  till: TillState;
  wallet: TillWalletChoice;
  wallets: TillWalletChoice[];
  onWallet: (id: string) => void;
  onAsk: () => void;
}) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const ids = useId();
  const amount = fmt.centsMoney(till.cents, wallet.currency);
  const { press, canAsk } = till;

  // A keyboard (a tablet's, a numeric pad) types on the keypad too, except into the memo.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const key = keyOf(e);
      if (key) {
        e.preventDefault();
        press(key);
      } else if (e.key === "Enter" && canAsk && !(e.target instanceof HTMLButtonElement)) {
        e.preventDefault();
        onAsk();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [press, canAsk, onAsk]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (canAsk) onAsk();
  };

  return (
    <form className="card till-keypad" noValidate onSubmit={submit}>
      <WalletChoice wallet={wallet} wallets={wallets} onWallet={onWallet} />
      <output className={till.cents === 0n ? "till-amount empty" : "till-amount"} aria-live="polite" aria-label={i18n._("Amount")}>
        {amount}
      </output>
      <div className="keypad" role="group" aria-label={i18n._("Keypad")}>
        {KEYPAD_ROWS.flat().map((key) => (
          <KeyButton key={key} k={key} onPress={press} />
        ))}
      </div>
      <div className="till-options">
        <div className="field">
          <label htmlFor={`${ids}-memo`}>{i18n._("Memo")}</label>
          <input
            id={`${ids}-memo`}
            autoComplete="off"
            placeholder={i18n._("Optional")}
            value={till.memo}
            onChange={(e) => till.setMemo(e.target.value)}
            aria-invalid={till.memoError ? true : undefined}
            aria-describedby={till.memoError ? `${ids}-memo-error` : undefined}
          />
          {till.memoError && (
            <p className="field-error" id={`${ids}-memo-error`}>
              {tr(till.memoError)}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor={`${ids}-expiry`}>{i18n._("Time to pay")}</label>
          <select id={`${ids}-expiry`} value={till.minutes} onChange={(e) => till.setMinutes(Number(e.target.value))}>
            {EXPIRY_CHOICES.map((m) => (
              <option key={m} value={m}>
                {i18n._("{count} min", { count: m })}
              </option>
            ))}
          </select>
        </div>
      </div>
      <button type="submit" className="button primary wide till-ask" disabled={!canAsk} aria-busy={till.asking}>
        {till.cents === 0n ? i18n._("Type the amount") : i18n._("Ask {amount}", { amount })}
      </button>
    </form>
  );
}

function KeyButton({ k, onPress }: { k: KeypadKey; onPress: (k: KeypadKey) => void }) {
  const { i18n } = useLingui();
  if (k === "back")
    return (
      <button type="button" className="key" aria-label={i18n._("Delete the last digit")} onClick={() => onPress(k)}>
        <Icon node={BackspaceIcon} />
      </button>
    );
  return (
    <button type="button" className="key" onClick={() => onPress(k)}>
      {k}
    </button>
  );
}

/** The request's amount and memo, as the customer reads them on the counter. */
function RequestSummary({ request }: { request: PaymentRequestView }) {
  const fmt = useFormat();
  return (
    <>
      <p className="till-amount">{fmt.money(request.amount, request.currency)}</p>
      {request.recipientMemo && <p className="till-memo">{request.recipientMemo}</p>}
    </>
  );
}

function WaitingView({
  request,
  secondsLeft,
  cancelling,
  onCancel,
}: {
  request: PaymentRequestView;
  secondsLeft: number;
  cancelling: boolean;
  onCancel: () => void;
}) {
  const { i18n } = useLingui();
  const ids = useId();
  // Monujo's fields for Monujo and older apps (a plain request), and the request's id for ours.
  // The payee is the wallet's owner, whoever runs the till (a cashier asks in the owner's name).
  const payload = {
    rp: request.payee.memberId,
    rpb: request.walletId,
    amount: request.amount,
    senderMemo: request.senderMemo || null,
    recipientMemo: request.recipientMemo || null,
    requestId: request.id,
    // Names this server, so a customer of a linked association pays across (docs/federation.md).
    server: window.location.origin,
  };
  const left = `${Math.floor(secondsLeft / 60)}:${String(secondsLeft % 60).padStart(2, "0")}`;
  return (
    <section className="card till-waiting" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} className="visually-hidden">
        {i18n._("Payment request")}
      </h2>
      <RequestSummary request={request} />
      <QrImage text={encodeQrPayload(payload)} label={i18n._("QR code")} size="min(76vw, 42vh, 320px)" />
      <p className="till-status" role="status">
        <span className="pulse" aria-hidden="true" />
        {i18n._("Waiting for the payment…")}
      </p>
      <p className="till-expiry">{i18n._("Expires in {time}", { time: left })}</p>
      {/* For a customer who cannot scan (a call, a message): named, but the code above comes first. */}
      <input
        className="till-link"
        aria-label={i18n._("Payment link")}
        readOnly
        value={paymentLink(window.location.origin, payload)}
        onFocus={(e) => e.currentTarget.select()}
      />
      <button type="button" className="button wide" onClick={onCancel} disabled={cancelling} aria-busy={cancelling}>
        {i18n._("Cancel the request")}
      </button>
    </section>
  );
}

function PaidView({ request, onNext }: { request: PaymentRequestView; onNext: () => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const paid = request.payment;
  return (
    <section className="card till-result paid" role="status" aria-live="assertive">
      <Icon node={PaidIcon} className="till-result-icon" />
      <h2>{i18n._("Paid")}</h2>
      <RequestSummary request={request} />
      {paid && (
        <p className="till-payer">
          {paid.payerName} <NameHint hint={paid.payerHint} /> · <time dateTime={paid.paidAt}>{fmt.time(new Date(paid.paidAt))}</time>
        </p>
      )}
      <NextSale onNext={onNext} primary />
    </section>
  );
}

function ClosedView({ request, asking, onAskAgain, onNext }: { request: PaymentRequestView; asking: boolean; onAskAgain: () => void; onNext: () => void }) {
  const { i18n } = useLingui();
  return (
    <section className="card till-result closed" role="status">
      <RequestSummary request={request} />
      {request.closedMessage && <p className="notice info">{tr({ id: request.closedMessage })}</p>}
      <button type="button" className="button primary wide" onClick={onAskAgain} disabled={asking} aria-busy={asking}>
        {i18n._("Ask again")}
      </button>
      <NextSale onNext={onNext} />
    </section>
  );
}

/** "New sale", where the shop's hand goes next once a sale is over. */
function NextSale({ onNext, primary = false }: { onNext: () => void; primary?: boolean }) {
  const { i18n } = useLingui();
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (primary) button.current?.focus();
  }, [primary]);
  return (
    <button ref={button} type="button" className={primary ? "button primary wide" : "button wide"} onClick={onNext}>
      {i18n._("New sale")}
    </button>
  );
}
