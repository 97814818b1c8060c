import { useEffect, useRef, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { RefusedError } from "@mutua/client";
import { LIMITS, formatCents, memoProblem, type Msg, type PaymentRequestView } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { pressKey, type KeypadKey } from "./keypad";
import { tillKeys, usePaymentRequest } from "./queries";
import { createPaidSignal } from "./signal";

/** What the till shows: the keypad, a request waiting for its payment, or how that request ended. */
export type TillView =
  | { step: "keypad" }
  | { step: "waiting"; request: PaymentRequestView; secondsLeft: number }
  | { step: "paid"; request: PaymentRequestView }
  | { step: "closed"; request: PaymentRequestView };

/** The times a shop may give a customer to pay, in minutes. */
export const EXPIRY_CHOICES = [5, 10, 15, 30, 60] as const;

/**
 * The state of the till, apart from how it is drawn: the amount typed on the keypad,
 * the memo and the time to pay, the request asked, and what became of it. The request's status
 * is the server's (features/shops/till/queries.ts): paid by the payment's own transaction, expired by the
 * database's clock, so the till says what the ledger says.
 */
export function useTill(walletId: string | undefined, opts: { cashier: boolean } = { cashier: false }) {
  const client = useClient();
  const qc = useQueryClient();
  const [cents, setCents] = useState(0n);
  const [memo, setMemo] = useState("");
  const [minutes, setMinutes] = useState<number>(LIMITS.paymentRequestMinutesDefault);
  const [asked, setAsked] = useState<{ id: string; deadline: number } | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const request = usePaymentRequest(asked?.id ?? null, opts);
  const signal = useRef(createPaidSignal());
  const signalled = useRef<string | null>(null);

  const r = request.data;
  const view: TillView =
    !asked || !r
      ? { step: "keypad" }
      : r.status === "open"
        ? { step: "waiting", request: r, secondsLeft: Math.max(0, Math.ceil((asked.deadline - now) / 1000)) }
        : r.status === "paid"
          ? { step: "paid", request: r }
          : { step: "closed", request: r };

  // The countdown, and past it the server asked each second until it says the request expired
  // (the device's clock may run ahead of the database's, which decides).
  const waiting = view.step === "waiting";
  const refetch = request.refetch;
  useEffect(() => {
    if (!waiting || !asked) return;
    const tick = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= asked.deadline) void refetch();
    }, 1000);
    return () => clearInterval(tick);
  }, [waiting, asked, refetch]);

  // Paid: the sound and the vibration, once per request; the day's count and total take the sale in.
  useEffect(() => {
    if (view.step === "paid" && signalled.current !== view.request.id) {
      signalled.current = view.request.id;
      signal.current.paid();
      void qc.invalidateQueries({ queryKey: tillKeys.allTotals() });
    }
  });
  useEffect(() => () => signal.current.close(), []);

  const ask = useMutation({
    mutationFn: () => {
      const text = memo.trim();
      return client.call("createPaymentRequest", {
        body: { walletId: walletId!, amount: formatCents(cents), senderMemo: text, recipientMemo: text, expiresInMinutes: minutes },
      });
    },
    onSuccess: (created) => {
      qc.setQueryData(tillKeys.request(created.id), created);
      // Counted on this device's clock from the server's own span, so a skewed clock changes nothing.
      setNow(Date.now());
      setAsked({ id: created.id, deadline: Date.now() + (Date.parse(created.expiresAt) - Date.parse(created.createdAt)) });
    },
  });

  const cancel = useMutation({
    mutationFn: (requestId: string) => client.call("cancelPaymentRequest", { params: { requestId } }),
    onSuccess: (after) => qc.setQueryData(tillKeys.request(after.id), after),
  });

  const clear = () => {
    setCents(0n);
    setMemo("");
    setAsked(null);
  };

  const memoError = memoProblem(memo);
  return {
    view,
    cents,
    memo,
    memoError,
    minutes,
    press: (key: KeypadKey) => setCents((c) => pressKey(c, key)),
    setMemo,
    setMinutes,
    canAsk: Boolean(walletId) && cents > 0n && !memoError && !ask.isPending,
    asking: ask.isPending,
    /** Called from the shop's tap, which also lets the page sound when the payment lands. */
    ask: async (): Promise<{ ok: true } | { ok: false; error: Msg | null }> => {
      signal.current.prepare();
      try {
        await ask.mutateAsync();
        return { ok: true };
      } catch (e) {
        return { ok: false, error: e instanceof RefusedError ? e.msg : null };
      }
    },
    /**
     * Withdraws the waiting request. A customer may pay at that very moment: the server then
     * refuses the cancel, and the till shows the payment instead of a new sale.
     */
    cancel: async (): Promise<{ ok: true } | { ok: false; paid: boolean }> => {
      if (view.step !== "waiting") return { ok: true };
      try {
        await cancel.mutateAsync(view.request.id);
        setAsked(null);
        return { ok: true };
      } catch {
        return { ok: false, paid: (await refetch()).data?.status === "paid" };
      }
    },
    cancelling: cancel.isPending,
    /** The next customer: an empty keypad. */
    newSale: clear,
  };
}
