import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { market } from "@mutua/client";
import type { BodyOf, MarketCategory, MarketKind, OfferView } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { MEMBER_KEY } from "../../../lib/query-policy";

/** The marketplace's queries: the list (by words, category, kind, or the member's own), one offer, the reports. */
export const marketKeys = {
  all: [...MEMBER_KEY, "market"] as const,
  list: (f: OfferFilter) => [...marketKeys.all, "list", f] as const,
  offer: (id: string) => [...marketKeys.all, "offer", id] as const,
  reports: () => [...marketKeys.all, "reports"] as const,
};

export interface OfferFilter {
  q: string;
  category?: MarketCategory | undefined;
  kind?: MarketKind | undefined;
  mine: boolean;
}

export function useOffers(f: OfferFilter) {
  const client = useClient();
  return useQuery({
    queryKey: marketKeys.list(f),
    queryFn: () =>
      market.call(client, "listOffers", {
        query: { q: f.q, mine: f.mine ? "true" : "false", ...(f.category ? { category: f.category } : {}), ...(f.kind ? { kind: f.kind } : {}) },
      }),
    // Typing a word keeps the last list on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });
}

export function useOffer(id: string) {
  const client = useClient();
  return useQuery({ queryKey: marketKeys.offer(id), queryFn: () => market.call(client, "getOffer", { params: { offerId: id } }), retry: false });
}

export function useReportedOffers() {
  const client = useClient();
  return useQuery({ queryKey: marketKeys.reports(), queryFn: () => market.call(client, "listReportedOffers") });
}

/** After any change: the offer's new state is its answer, and every list may hold it. */
function useSettle() {
  const qc = useQueryClient();
  return (offer: OfferView) => {
    qc.setQueryData(marketKeys.offer(offer.id), offer);
    void qc.invalidateQueries({ queryKey: marketKeys.all, predicate: (q) => q.queryKey[q.queryKey.length - 1] !== offer.id });
  };
}

export type OfferInput = BodyOf<"createOffer">;

export function useSaveOffer() {
  const client = useClient();
  const settle = useSettle();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: OfferInput }) =>
      id ? market.call(client, "updateOffer", { params: { offerId: id }, body }) : market.call(client, "createOffer", { body }),
    onSuccess: settle,
  });
}

export function useWithdrawOffer() {
  const client = useClient();
  const settle = useSettle();
  return useMutation({ mutationFn: (id: string) => market.call(client, "withdrawOffer", { params: { offerId: id } }), onSuccess: settle });
}

export function useOfferPhotos(id: string) {
  const client = useClient();
  const settle = useSettle();
  const add = useMutation({
    mutationFn: (data: string) => market.call(client, "addOfferPhoto", { params: { offerId: id }, body: { data } }),
    onSuccess: settle,
  });
  const remove = useMutation({
    mutationFn: (photoId: number) => market.call(client, "removeOfferPhoto", { params: { offerId: id, photoId } }),
    onSuccess: settle,
  });
  return { add, remove };
}

export function useReportOffer(id: string) {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => market.call(client, "reportOffer", { params: { offerId: id }, body: { reason } }),
    onSettled: () => qc.invalidateQueries({ queryKey: marketKeys.offer(id) }),
  });
}

export function useHideOffer(id: string) {
  const client = useClient();
  const settle = useSettle();
  return useMutation({ mutationFn: (reason: string) => market.call(client, "hideOffer", { params: { offerId: id }, body: { reason } }), onSuccess: settle });
}
