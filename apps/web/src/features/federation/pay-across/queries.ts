import { useQuery } from "@tanstack/react-query";
import { federationRoutes } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { MEMBER_KEY } from "../../../lib/query-policy";

export const payAcrossKeys = {
  all: [...MEMBER_KEY, "pay-across"] as const,
  quote: (server: string, walletId: string, amount: string | undefined) => [...payAcrossKeys.all, "quote", server, walletId, amount ?? ""] as const,
};

/**
 * What paying `amount` (in the payee's currency) would cost, as both associations count it now.
 * A refusal (no link, an unknown wallet) is the answer: asking again changes nothing.
 */
export function useCrossQuote(server: string, walletId: string, amount: string | undefined) {
  const client = useClient();
  return useQuery({
    queryKey: payAcrossKeys.quote(server, walletId, amount),
    enabled: amount !== undefined,
    retry: false,
    // The route is the federation table's (not the members' one the login page carries).
    queryFn: () => client.send("quoteCrossPayment", federationRoutes.quoteCrossPayment, { body: { server, walletId, amount: amount! } }),
  });
}
