/** Terms of a link between associations, valid as such. */
export const LINK_TERMS = { ourValue: "1", theirValue: "1.25", trustLimit: "100.00", enabled: true };

/**
 * What the route-table authorization test sends each route another association's server calls:
 * well-formed bodies, unsigned (401 for every role: the signature is checked before anything else).
 */
const peerPayment = (payee: string) => ({
  paymentId: "fp_0123456789abcdefghij",
  walletId: payee,
  amount: "1.00",
  payerAmount: "1.00",
  payer: { name: "X" },
  memo: "",
});

export const peerCalls = (payee: () => string) => ({
  peerAcceptLink: () => ({
    body: {
      secret: "a-secret-nobody-made-ever",
      server: {
        protocol: "mutua-federation/1",
        name: "X",
        url: "https://x.example",
        currencyName: "X",
        currencySymbol: "X",
        publicKey: "A".repeat(43),
        fingerprint: "0".repeat(32),
      },
      terms: LINK_TERMS,
    },
  }),
  peerConfirmLink: () => ({ body: { terms: LINK_TERMS } }),
  peerLinkTerms: () => ({ body: { terms: LINK_TERMS, version: 2 } }),
  peerRoutes: () => ({ body: { version: 2, routes: [] } }),
  peerQuote: () => ({ body: { walletId: payee(), amount: "1.00" } }),
  peerPay: () => ({ body: peerPayment(payee()) }),
  peerQuotes: () => ({ body: { quotes: [{ walletId: payee(), amount: "1.00" }] } }),
  peerPayments: () => ({ body: { payments: [peerPayment(payee())] } }),
  peerPaymentState: () => ({ body: { paymentId: "fp_0123456789abcdefghij" } }),
  peerPaymentEnded: () => ({ body: { paymentId: "fp_0123456789abcdefghij", days: 7 } }),
  peerKeyRotated: () => ({ body: { publicKey: "A".repeat(43), proof: "A".repeat(86) } }),
  peerLinkEnded: () => ({ body: { endedAt: "2026-01-01T00:00:00Z" } }),
  peerAddressChanged: () => ({ body: { url: "https://moved.example" } }),
  peerSettlementProposed: () => ({
    body: { settlementId: "fs_0123456789abcdefghij", proposerPays: true, amount: "1.00", peerAmount: "1.25", given: "amount", note: "" },
  }),
  peerSettlementWithdrawn: () => ({
    body: { settlementId: "fs_0123456789abcdefghij", proposerPays: true, amount: "1.00", peerAmount: "1.25", given: "amount", note: "" },
  }),
  peerSettlementAccepted: () => ({ body: { settlementId: "fs_0123456789abcdefghij", amount: "1.25", peerAmount: "1.00" } }),
  peerSettlementDeclined: () => ({ body: { settlementId: "fs_0123456789abcdefghij" } }),
});
