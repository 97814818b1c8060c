import { useState } from "react";
import { useClient } from "../../../lib/context";
import { useUnlock } from "../../wallets";
import { sendPayment, type PaymentDraft, type SendOutcome } from "./send-payment";

export type { PaymentDraft, SendOutcome };

/** The payment of send-payment.ts with this app's client and unlock dialog, and whether one is under way. */
export function useSendPayment() {
  const client = useClient();
  const { unlockWallet, forgetWallet } = useUnlock();
  const [sending, setSending] = useState(false);

  async function send(d: PaymentDraft): Promise<SendOutcome> {
    setSending(true);
    try {
      return await sendPayment({ client, unlockWallet, forgetWallet }, d);
    } finally {
      setSending(false);
    }
  }

  return { send, sending };
}
