import { lazy, useEffect } from "react";
import { Navigate, useLocation } from "react-router";
import { decodeQrContent } from "@mutua/domain";
import { toast } from "../../lib/toast";
import { useMe } from "../auth/queries";

// Paying a member of a linked association: its own chunk, loaded only for such a code.
const PayAcrossScreen = lazy(() => import("../pay-across/PayAcrossScreen").then((m) => ({ default: m.PayAcrossScreen })));

/**
 * /pay?rp=…&rpb=…[&amount=…&senderMemo=…&recipientMemo=…]: the payment link under every QR code,
 * so a phone's own camera app opens the payment step, checked exactly as a scanned code is. With
 * `across=<origin>` (pay-across/link.ts), the screen that pays a member of a linked association.
 */
export function PayLinkScreen() {
  const location = useLocation();
  // Another association's code, scanned here (SendMoneyModal): the screen that pays across
  // (pay-across/link.ts names the parameter; spelt here so that this chunk needs no other).
  // The layout's Suspense shows the page loading meanwhile.
  if (new URLSearchParams(location.search).has("across")) return <PayAcrossScreen />;
  return <LocalPayLink />;
}

/** A payment link of this association: the dashboard's payment step, as a scanned code opens it. */
function LocalPayLink() {
  const location = useLocation();
  const me = useMe().data;
  const result = me ? decodeQrContent(window.location.origin + location.pathname + location.search, me.id, window.location.origin) : null;
  useEffect(() => {
    if (result && !result.ok) toast.error(result.error);
  }, [result?.ok]); // eslint-disable-line react-hooks/exhaustive-deps
  if (!result) return null;
  return <Navigate to="/dashboard" replace state={result.ok ? { pay: result.payload } : null} />;
}
