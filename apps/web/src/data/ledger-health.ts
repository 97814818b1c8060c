import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { admin } from "@mutua/client";
import type { LedgerHealth } from "@mutua/domain";
import { MEMBER_KEY } from "../lib/query-policy";
import { useClient } from "../lib/context";

/**
 * The ledger's health, as the administrators' console and the board's figures both show it. Under
 * the board's keys, so that refreshing the board's queries refreshes it too.
 */
export const ledgerHealthKey = [...MEMBER_KEY, "board", "ledger-health"] as const;

/** The last run of the ledger's invariant checks. */
export function useLedgerHealth() {
  const client = useClient();
  return useQuery({ queryKey: ledgerHealthKey, queryFn: () => admin.call(client, "getLedgerHealth") });
}

/** Runs the checks now; the answer is the new health, put in place of the old one. */
export function useCheckLedger() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => admin.call(client, "checkLedger"),
    onSuccess: (health: LedgerHealth) => qc.setQueryData(ledgerHealthKey, health),
  });
}
