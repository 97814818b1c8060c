import { useEffect } from "react";
import { Navigate, useLocation } from "react-router";
import { decodeQrContent } from "@mutua/domain";
import { toast } from "../../lib/toast";
import { useMe } from "../auth/queries";

/**
 * /pay?rp=…&rpb=…[&amount=…&senderMemo=…&recipientMemo=…]: the payment link under every QR code,
 * so a phone's own camera app opens the payment step, checked exactly as a scanned code is.
 */
export function PayLinkScreen() {
  const location = useLocation();
  const me = useMe().data;
  const result = me ? decodeQrContent(window.location.origin + location.pathname + location.search, me.id) : null;
  useEffect(() => {
    if (result && !result.ok) toast.error(result.error);
  }, [result?.ok]); // eslint-disable-line react-hooks/exhaustive-deps
  if (!result) return null;
  return <Navigate to="/dashboard" replace state={result.ok ? { pay: result.payload } : null} />;
}
