import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import { directoryRoutes } from "@mutua/domain";
import { Navigate, useLocation } from "../../../lib/router";
import { useClient } from "../../../lib/context";
import { toast } from "../../../lib/toast";
import { MEMBER_KEY } from "../../../lib/query-policy";

/**
 * `/pay?business=…`: a business's Pay, for a signed-in member (a visitor signed in first, the
 * link kept meanwhile): whom to pay is asked of the server, then the payment link's screen opens
 * Send money with them chosen, as a scanned code of theirs would.
 */
export function PayBusiness() {
  const { i18n } = useLingui();
  const client = useClient();
  const { search } = useLocation();
  const id = new URLSearchParams(search).get("business") ?? "";
  const payee = useQuery({
    queryKey: [...MEMBER_KEY, "business-payee", id],
    queryFn: () => client.send("getBusinessPayee", directoryRoutes.getBusinessPayee, { params: { businessId: id } }),
    retry: false,
  });
  useEffect(() => {
    if (payee.error) toast.error(payee.error instanceof RefusedError ? payee.error.msg : i18n._("This business is not in the directory."));
  }, [payee.error, i18n]);
  if (payee.isError) return <Navigate to="/dashboard" replace />;
  if (!payee.data) return <main className="page" aria-busy="true" />;
  return <Navigate to={`/pay?${new URLSearchParams({ rp: String(payee.data.memberId), rpb: payee.data.walletId })}`} replace />;
}
