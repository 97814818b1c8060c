import { useState } from "react";
import { RefusedError } from "@mutua/client";
import { ErrorCode, M, directoryConfig, parseAmountInput, type AccountEntry, type Msg, type Recipient } from "@mutua/domain";
import { useConfig } from "../../../lib/context";
import { payingAccount, useAccounts } from "../../../data/accounts";
import { useUnlock } from "../../wallets";
import { useCreateStandingOrder, type NewStandingOrder, type StandingOrder } from "./queries";
import { associationToday, draftErrors, type OrderDraft } from "./draft";

/** The password or PIN asked of a custodial wallet's member, in the payments' Authentication dialog. */
export interface Challenge {
  attempt: number;
  mode: "pin" | "password";
  failed: boolean;
  attemptsLeft: number | null;
}

/**
 * The set-up of a standing order, without its looks: the payee (the send flow's recipient
 * picker), then the amount, how often, the dates and what a refusal does, then a review. A
 * custodial wallet's order is confirmed with the member's password, or a PIN of this device (the
 * server pays on each day without them); a device-signed wallet's needs neither, its member signs
 * each payment when reminded.
 */
export function useNewStandingOrder(onCreated: (o: StandingOrder) => void) {
  const config = useConfig();
  const accounts = useAccounts();
  const { policy } = useUnlock();
  const create = useCreateStandingOrder();
  const today = associationToday(directoryConfig(config).timeZone);
  const [step, setStep] = useState<"recipient" | "details" | "review">("recipient");
  const [recipient, setRecipient] = useState<Recipient | null>(null);
  const [draft, setDraft] = useState<OrderDraft>({ amountText: "", memo: "", frequency: "monthly", startDate: today, endDate: "", retryDays: 0 });
  const [shown, setShown] = useState(false);
  const [challenge, setChallenge] = useState<Challenge | null>(null);
  const [refusal, setRefusal] = useState<Msg | null>(null);

  const from: AccountEntry | undefined = recipient ? payingAccount(accounts.data, recipient.backendId) : undefined;
  const errors = draftErrors(draft, today);
  const valid = Object.keys(errors).length === 0;
  const amount = valid ? (parseAmountInput(draft.amountText, "send") as { ok: true; text: string }).text : null;

  const body = (): NewStandingOrder => ({
    from: from!.id,
    to: recipient!.walletId,
    amount: amount!,
    memo: draft.memo.trim(),
    frequency: draft.frequency,
    startDate: draft.startDate,
    endDate: draft.frequency === "once" || !draft.endDate ? null : draft.endDate,
    retryDays: draft.retryDays,
  });

  /** Sends the set-up; a wrong password or PIN asks again in the same dialog, another refusal goes back to the form. */
  const send = async (confirmation: Pick<NewStandingOrder, "password" | "pin">) => {
    setRefusal(null);
    try {
      const order = await create.mutateAsync({ ...body(), ...confirmation });
      setChallenge(null);
      onCreated(order);
    } catch (e) {
      const code = e instanceof RefusedError ? e.code : null;
      if (challenge && (code === ErrorCode.reauthFailed || code === ErrorCode.wrongPin)) {
        const left = code === ErrorCode.wrongPin ? Number((e as RefusedError).body.values?.attemptsLeft ?? NaN) || null : null;
        return setChallenge((c) => c && { ...c, attempt: c.attempt + 1, failed: true, attemptsLeft: left });
      }
      if (challenge && code === ErrorCode.pinDisabled)
        return setChallenge((c) => c && { attempt: c.attempt + 1, mode: "password", failed: false, attemptsLeft: null });
      setChallenge(null);
      setRefusal(e instanceof RefusedError ? e.msg : { id: M.pleaseRetry });
    }
  };

  /** This device's PIN of one of the member's wallets, when the policy asks PINs: the server takes it as it takes the password. */
  const pinWallet = () => (policy.method === "pin" ? (accounts.data ?? []).find((a) => a.requiresUnlock) : undefined);

  return {
    step,
    today,
    /** The amount as the API writes it, once the draft is valid. */
    amount,
    recipient,
    from,
    draft,
    errors,
    /** Errors show once the member has tried to go on. */
    shown,
    refusal,
    challenge,
    busy: create.isPending,
    set: (part: Partial<OrderDraft>) => setDraft((d) => ({ ...d, ...part })),
    choose: (r: Recipient) => {
      setRecipient(r);
      setStep("details");
    },
    back: step === "recipient" ? undefined : () => setStep(step === "review" ? "details" : "recipient"),
    review: () => {
      setShown(true);
      if (valid && from) setStep("review");
    },
    confirm: async () => {
      if (!from) return;
      if (from.requiresUnlock) return send({});
      const wallet = pinWallet();
      const { hasPin } = await import("../../wallets/unlock/pins");
      setChallenge({ attempt: 1, mode: wallet && hasPin(wallet.id) ? "pin" : "password", failed: false, attemptsLeft: null });
    },
    answer: async (a: { kind: "pin"; pin: string } | { kind: "password"; password: string } | { kind: "use-password" }) => {
      if (a.kind === "use-password") return setChallenge((c) => c && { attempt: c.attempt + 1, mode: "password", failed: false, attemptsLeft: null });
      if (a.kind === "password") return send({ password: a.password });
      const { pinRecordOf } = await import("../../wallets/unlock/pins");
      const record = await pinRecordOf(pinWallet()!.id);
      if (!record) return setChallenge((c) => c && { attempt: c.attempt + 1, mode: "password", failed: false, attemptsLeft: null });
      const { pinProof } = await import("@mutua/wallet");
      return send({ pin: { pinId: record.pinId, proof: await pinProof(a.pin, record.proofSalt) } });
    },
    cancelChallenge: () => setChallenge(null),
  };
}

export type NewOrderState = ReturnType<typeof useNewStandingOrder>;
