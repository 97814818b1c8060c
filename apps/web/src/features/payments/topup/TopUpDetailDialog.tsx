import { Suspense, lazy, useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react";
import { M, type PendingTopUp } from "@mutua/domain";
import { MEMBER_KEY } from "../../../lib/query-policy";
import { Dialog } from "../../../ui/Dialog";
import { toast } from "../../../lib/toast";
import { useFormat } from "../../../lib/format";
import { detailDate } from "../../../lib/dates";
import { SpokenWhen } from "../../../ui/SpokenWhen";
import { useCancelTopUp, useFetchPendingTopUps } from "./queries";
import "../../../ui/parts.css";

// Asked only when the member deletes the request: not part of the dashboard's download.
const ConfirmDialog = lazy(() => import("../../../ui/ConfirmDialog").then((m) => ({ default: m.ConfirmDialog })));

/** docs/spec.md §4 "Top-up": 5 s between checks while a payment is awaited; we also give up after 15 minutes. */
const POLL_MS = 5000;
const POLL_LIMIT_MS = 15 * 60_000;

/**
 * docs/spec.md §2 "Top-up details": Delete / Pay / Ok for the requester's unpaid order; Pay waits for
 * the payment by itself. One primary action: Pay when it is offered, Ok otherwise. Delete asks first.
 */
export function TopUpDetailDialog({ order, onClose, onPaid }: { order: PendingTopUp; onClose: () => void; onPaid: () => void }) {
  const { i18n } = useLingui();
  const fetchPendingTopUps = useFetchPendingTopUps();
  const fmt = useFormat();
  const qc = useQueryClient();
  const cancel = useCancelTopUp();
  const [waiting, setWaiting] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const amount = fmt.apiAmount(order.amount);
  const unpaid = order.state === "unpaid";
  const payable = order.isMine && unpaid && !waiting;

  useEffect(() => () => clearTimeout(timer.current), []);

  const watch = (since: number) => {
    timer.current = setTimeout(async () => {
      try {
        const list = await fetchPendingTopUps(order.walletId);
        const now = list.find((o) => o.id === order.id);
        if (!now || now.state !== "unpaid") {
          setWaiting(false);
          await qc.invalidateQueries({ queryKey: MEMBER_KEY });
          toast.success({ id: M.topUpPaid });
          onPaid();
          return;
        }
      } catch {
        setWaiting(false);
        return toast.error({ id: M.pendingTopUpsFailed });
      }
      if (Date.now() - since < POLL_LIMIT_MS) watch(since);
      else setWaiting(false);
    }, POLL_MS);
  };

  return (
    <>
      <Dialog
        title={i18n._("Top-up details")}
        onClose={onClose}
        footer={
          <>
            {order.canCancel && unpaid && (
              <button type="button" className="button" onClick={() => setConfirmingDelete(true)}>
                {i18n._("Delete")}
              </button>
            )}
            {payable && (
              <button
                type="button"
                className="button primary"
                onClick={() => {
                  window.open(order.order_url, "_blank", "noopener");
                  setWaiting(true);
                  watch(Date.now());
                }}
              >
                {i18n._("Pay")}
              </button>
            )}
            {waiting && (
              <button
                type="button"
                className="button"
                onClick={() => {
                  clearTimeout(timer.current);
                  setWaiting(false);
                }}
              >
                {i18n._("Stop waiting")}
              </button>
            )}
            <button type="button" className={payable ? "button" : "button primary"} onClick={onClose}>
              {i18n._("Ok")}
            </button>
          </>
        }
      >
        <p className="detail-headline">{unpaid || order.state === "paid" ? i18n._("Top-up requested") : i18n._("Top-up received")}</p>
        <p className="detail-amount">{i18n._("Requested {amount} {currency}", { amount, currency: order.currency })}</p>
        {!order.isMine && <p>{i18n._("by {name}", { name: order.requester.name })}</p>}
        <SpokenWhen iso={order.date} />
        <p>
          {unpaid
            ? order.isMine
              ? i18n._("Your top-up request is waiting for you to pay it or delete it")
              : i18n._("This top-up request is waiting for its requester to pay it")
            : i18n._("This top-up request is waiting for an administrator of your local currency to validate it")}
        </p>
        {waiting && (
          <p className="notice info" aria-live="polite">
            {i18n._("Waiting for the payment… This window notices it by itself.")}
          </p>
        )}
        <dl className="details">
          <dt>{i18n._("Date")}</dt>
          <dd className="detail-date">{detailDate(order.date)}</dd>
        </dl>
      </Dialog>
      {/* Beside the details, not inside them: a dialog of its own on top of the other. */}
      {confirmingDelete && (
        <Suspense fallback={null}>
          <ConfirmDialog
            title={i18n._("Delete this top-up request of {amount} {currency}?", { amount, currency: order.currency })}
            confirm={i18n._("Delete")}
            danger
            busy={cancel.isPending}
            onClose={() => setConfirmingDelete(false)}
            onConfirm={() =>
              cancel.mutate(order.id, {
                onSuccess: () => {
                  toast.success({ id: M.topUpDeleted });
                  void qc.invalidateQueries({ queryKey: MEMBER_KEY });
                  onClose();
                },
                // The question stays: the member may try again or cancel.
                onError: () => toast.error(i18n._(M.topUpDeleteFailed)),
              })
            }
          />
        </Suspense>
      )}
    </>
  );
}
