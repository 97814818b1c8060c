import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BodyOf } from "@mutua/domain";
import { useClient } from "../../app/context";
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
    /** The asked member declines, or the asker withdraws. */
    mutationFn: async ({ requestId, as }: { requestId: string; as: "asked" | "asker" }): Promise<void> => {
      if (as === "asked") await client.call("declineAsk", { params: { requestId } });
      else await client.call("cancelPaymentRequest", { params: { requestId } });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: askKeys.all }),
  });
}

/** Stops a member from asking again (their open asks are declined), or lets them again. */
export function useBlockAsker() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ memberId, blocked }: { memberId: number; blocked: boolean }): Promise<void> => {
      if (blocked) await client.call("blockAsker", { params: { memberId } });
      else await client.call("unblockAsker", { params: { memberId } });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: askKeys.all }),
  });
}
