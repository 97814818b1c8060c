import { lazy } from "react";
import { useLocation } from "../lib/router";
import { PayLinkScreen } from "../features/payments/qr/PayLinkScreen";

// Paying a member of a linked association: its own chunk, loaded only for such a code.
// A business's Pay (its page's link): whom to pay is asked first, in the directory's chunk.
const PayBusiness = lazy(() => import("../features/shops/business/PayBusiness").then((m) => ({ default: m.PayBusiness })));
const PayAcrossScreen = lazy(() => import("../features/federation/pay-across/PayAcrossScreen").then((m) => ({ default: m.PayAcrossScreen })));

/**
 * /pay?rp=…&rpb=…[&amount=…&senderMemo=…&recipientMemo=…]: the payment link under every QR code,
 * so a phone's own camera app opens the payment step, checked exactly as a scanned code is. With
 * `across=<origin>` (payments/qr/across-link.ts names it; spelt here so that this chunk needs no
 * other), the screen that pays a member of a linked association: the layout's Suspense shows the
 * page loading meanwhile.
 */
export function PayScreen() {
  const location = useLocation();
  const query = new URLSearchParams(location.search);
  if (query.has("across")) return <PayAcrossScreen />;
  if (query.has("business")) return <PayBusiness />;
  return <PayLinkScreen />;
}
