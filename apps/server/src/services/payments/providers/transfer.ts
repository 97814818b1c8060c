import type { TopUpProvider } from "./types";

/** Payment by bank transfer to the association; a credit administrator marks it paid when it arrives. */
export const transferProvider: TopUpProvider = {
  name: "transfer",
  selfCheckout: false,
  checkout: (order, s) => ({
    kind: "bank-transfer",
    amount: order.amount,
    holder: s.bank.holder,
    iban: s.bank.iban,
    bic: s.bank.bic,
    reference: order.reference,
  }),
};
