import { useQuery } from "@tanstack/react-query";
import { useClient } from "../../../lib/context";
import { MEMBER_KEY } from "../../../lib/query-policy";

export const sendKeys = {
  all: [...MEMBER_KEY, "prepare"] as const,
  plan: (from: string, to: string, amount: string | undefined) => [...sendKeys.all, from, to, amount ?? ""] as const,
};

/**
 * The split of a payment between mutual credit and pledged money, as the server would make it
 * (docs/spec.md §5); asked once the amount is valid. A refusal is an answer, not a retry.
 */
export function usePaymentPlan(from: string, to: string, amount: string | undefined) {
  const client = useClient();
  return useQuery({
    queryKey: sendKeys.plan(from, to, amount),
    enabled: amount !== undefined,
    retry: false,
    queryFn: () => client.call("prepareTransfer", { body: { from, to, amount: amount! } }),
  });
}
