import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BodyOf } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { askKeys } from "./queries";

// Asking, declining and withdrawing: loaded with the screens that do them, not with the dashboard.

export function useAskMoney() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<"askMoney">) => client.call("askMoney", { body }),
    onSettled: () => qc.invalidateQueries({ queryKey: askKeys.all }),
  });
}

export function useAnswerAsk() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    /** The asked member declines (and with `stop`, stops the asker from asking again), or the asker withdraws. */
    mutationFn: async ({ requestId, as, stop = false }: { requestId: string; as: "asked" | "asker"; stop?: boolean }): Promise<void> => {
      if (as === "asked") await client.call("declineAsk", { params: { requestId }, query: stop ? { stop: "asker" } : {} });
      else await client.call("cancelPaymentRequest", { params: { requestId } });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: askKeys.all }),
  });
}
