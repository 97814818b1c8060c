import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RefusedError, admin } from "@mutua/client";
import type { FederationLink, FederationOverview, FederationSettlement, FederationTerms } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { adminKeys } from "../../association";

/** The links with other associations, under the administration's keys (one factory). */
export const federationKeys = {
  all: [...adminKeys.all, "federation"] as const,
  overview: () => [...federationKeys.all, "overview"] as const,
};

/** A refusal is the answer (the right is missing): asking again changes nothing. */
const retryUnlessRefused = (failures: number, error: Error) => !(error instanceof RefusedError) && failures < 3;

/** This server's description and its links, as the owners' console shows them. */
export function useFederationOverview() {
  const client = useClient();
  return useQuery({
    queryKey: federationKeys.overview(),
    queryFn: () => admin.call(client, "listFederationLinks"),
    retry: retryUnlessRefused,
  });
}

/** The overview with one link as now stored: replaced where it was, else added first. */
export const withLink = (o: FederationOverview, link: FederationLink): FederationOverview => ({
  ...o,
  links: o.links.some((l) => l.id === link.id) ? o.links.map((l) => (l.id === link.id ? link : l)) : [link, ...o.links],
});

/**
 * The links' actions, each answered with the link as now stored, which the list shows at once;
 * the list is then asked again (the other side may have moved meanwhile).
 */
export function useFederationActions() {
  const client = useClient();
  const qc = useQueryClient();
  const key = federationKeys.overview();
  const keep = async (link: FederationLink) => {
    qc.setQueryData<FederationOverview>(key, (o) => (o ? withLink(o, link) : o));
    await qc.invalidateQueries({ queryKey: key });
  };
  const invite = useMutation({
    mutationFn: () => admin.call(client, "createFederationInvitation"),
    onSuccess: (r) => keep(r.link),
  });
  // Who an invitation comes from, read before accepting it: nothing is stored, on either side.
  const preview = useMutation({
    mutationFn: (code: string) => admin.call(client, "previewFederationInvitation", { body: { code } }),
  });
  const accept = useMutation({
    mutationFn: (body: { code: string; terms: FederationTerms }) => admin.call(client, "acceptFederationInvitation", { body }),
    onSuccess: keep,
  });
  const confirm = useMutation({
    mutationFn: ({ linkId, terms }: { linkId: string; terms: FederationTerms }) =>
      admin.call(client, "confirmFederationLink", { params: { linkId }, body: { terms } }),
    onSuccess: keep,
  });
  const setTerms = useMutation({
    mutationFn: ({ linkId, terms }: { linkId: string; terms: FederationTerms }) =>
      admin.call(client, "setFederationLinkTerms", { params: { linkId }, body: { terms } }),
    onSuccess: keep,
  });
  const withdraw = useMutation({
    mutationFn: (linkId: string) => admin.call(client, "withdrawFederationInvitation", { params: { linkId } }),
    onSuccess: async (_, linkId) => {
      qc.setQueryData<FederationOverview>(key, (o) => (o ? { ...o, links: o.links.filter((l) => l.id !== linkId) } : o));
      await qc.invalidateQueries({ queryKey: key });
    },
  });
  // A payment in doubt past the stated days, ended: the member's money returned, the other side told.
  const endPayment = useMutation({
    mutationFn: (p: { linkId: string; paymentId: string }) => admin.call(client, "endFederationPayment", { params: p }),
    onSuccess: async (ended) => {
      qc.setQueryData<FederationOverview>(key, (o) => (o ? { ...o, payments: o.payments.map((p) => (p.id === ended.id ? ended : p)) } : o));
      await qc.invalidateQueries({ queryKey: key });
    },
  });
  // Forwarding a link's payments to the other links turned on or off: its server told what this side reaches.
  const setForwarding = useMutation({
    mutationFn: ({ linkId, forward }: { linkId: string; forward: boolean }) =>
      admin.call(client, "setFederationLinkForwarding", { params: { linkId }, body: { forward } }),
    onSuccess: keep,
  });
  // A link ended: nothing crosses it any more, its balance stays, the other side told.
  const endLink = useMutation({
    mutationFn: (linkId: string) => admin.call(client, "endFederationLink", { params: { linkId } }),
    onSuccess: keep,
  });
  return { invite, preview, accept, confirm, setTerms, withdraw, endPayment, setForwarding, endLink };
}

/** The overview with one settlement as now stored: replaced where it was, else added first. */
export const withSettlement = (o: FederationOverview, s: FederationSettlement): FederationOverview => ({
  ...o,
  settlements: o.settlements.some((x) => x.id === s.id) ? o.settlements.map((x) => (x.id === s.id ? s : x)) : [s, ...o.settlements],
});

/**
 * Settling a link (docs/federation.md "Settlement"): propose, accept, decline, withdraw, each
 * answered with the settlement as now stored, which the card shows at once; the list is then asked
 * again (the figures moved, and the other side may have answered meanwhile).
 */
export function useSettlementActions() {
  const client = useClient();
  const qc = useQueryClient();
  const key = federationKeys.overview();
  const keep = async (s: FederationSettlement) => {
    qc.setQueryData<FederationOverview>(key, (o) => (o ? withSettlement(o, s) : o));
    await qc.invalidateQueries({ queryKey: key });
  };
  type Params = { linkId: string; settlementId: string };
  const propose = useMutation({
    mutationFn: ({ linkId, ...body }: { linkId: string; amount: string; currency: "ours" | "theirs"; note: string }) =>
      admin.call(client, "proposeFederationSettlement", { params: { linkId }, body }),
    onSuccess: keep,
  });
  const accept = useMutation({ mutationFn: (p: Params) => admin.call(client, "acceptFederationSettlement", { params: p }), onSuccess: keep });
  const decline = useMutation({ mutationFn: (p: Params) => admin.call(client, "declineFederationSettlement", { params: p }), onSuccess: keep });
  const withdraw = useMutation({ mutationFn: (p: Params) => admin.call(client, "withdrawFederationSettlement", { params: p }), onSuccess: keep });
  return { propose, accept, decline, withdraw };
}
