import { useMutation, useQueryClient } from "@tanstack/react-query";
import { admin } from "@mutua/client";
import type { BodyOf, ReconversionView } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { adminKeys } from "./queries";

/**
 * What administrators change, each a mutation that refreshes what it changed: the screens say how
 * it went (their toasts, their questions), through mutateAsync, so that two decisions running at
 * once are each told.
 */

/** Approves or discards a member's new wallet (Account requests). */
export function useDecideAccount() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ walletId, approve }: { walletId: string; approve: boolean }) =>
      admin.call(client, approve ? "validateCreation" : "discardCreateRequest", { body: { walletId } }),
    onSettled: () => qc.invalidateQueries({ queryKey: adminKeys.pendingAccounts() }),
  });
}

/** Credits a paid top-up (Credit requests). */
export function useApproveCredit() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => admin.call(client, "validateCredit", { body: { id } }),
    onSettled: () => qc.invalidateQueries({ queryKey: adminKeys.creditRequests() }),
  });
}

/** Freezes a wallet with its reason, or unfreezes it (reason null). */
export function useFreezeWallet() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ walletId, reason }: { walletId: string; reason: string | null }) =>
      reason === null ? admin.call(client, "unfreezeWallet", { body: { walletId } }) : admin.call(client, "freezeWallet", { body: { walletId, reason } }),
    onSettled: () => qc.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/** Moves a reconversion on to its next stage. */
export function useAdvanceReconversion() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: ReconversionView["status"] }) => admin.call(client, "advanceReconversion", { body: { id, status } }),
    onSettled: () => qc.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/** Marks a top-up order paid by bank transfer as paid: it then awaits its credit. */
export function useMarkTopUpPaid() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => admin.call(client, "markTopUpPaid", { body: { id } }),
    onSettled: () => qc.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/** Saves a wallet's mutual-credit bounds and whether it takes top-ups. */
export function useSaveWalletLimits() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<"setWalletLimits">) => admin.call(client, "setWalletLimits", { body }),
    onSettled: () => qc.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
