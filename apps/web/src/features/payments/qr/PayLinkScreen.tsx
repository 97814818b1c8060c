import { useEffect } from "react";
import { Navigate, useLocation } from "../../../lib/router";
import { decodeQrContent } from "@mutua/domain";
import { toast } from "../../../lib/toast";
import { useMe } from "../../../data/session";

/** A payment link of this association: the dashboard's payment step, as a scanned code opens it. */
export function PayLinkScreen() {
  const location = useLocation();
  const me = useMe().data;
  const result = me ? decodeQrContent(window.location.origin + location.pathname + location.search, me.id, window.location.origin) : null;
  useEffect(() => {
    if (result && !result.ok) toast.error(result.error);
  }, [result?.ok]); // eslint-disable-line react-hooks/exhaustive-deps
  if (!result) return null;
  return <Navigate to="/dashboard" replace state={result.ok ? { pay: result.payload } : null} />;
}
