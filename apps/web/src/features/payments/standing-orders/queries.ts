import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { standingOrderRoutes, type BodyOf, type ResponseOf } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { MEMBER_KEY } from "../../../lib/query-policy";
import { transactionKeys } from "../../../data/transactions";

/** A standing order as the member sees it (packages/domain/src/payments/standing-order-schemas.ts). */
export type StandingOrder = ResponseOf<"getStandingOrder">;
export type NewStandingOrder = BodyOf<"createStandingOrder">;

/**
 * The standing orders' queries: the member's list and one order. Their routes are a table of their
 * own (standing-order-routes.ts), imported here only, so the dashboard carries none of them.
 */
export const standingOrderKeys = {
  all: [...MEMBER_KEY, "standing-orders"] as const,
  list: () => [...standingOrderKeys.all, "list"] as const,
  order: (id: string) => [...standingOrderKeys.all, "order", id] as const,
};

export function useStandingOrders() {
  const client = useClient();
  return useQuery({ queryKey: standingOrderKeys.list(), queryFn: () => client.send("listStandingOrders", standingOrderRoutes.listStandingOrders) });
}

export function useStandingOrder(id: string) {
  const client = useClient();
  return useQuery({
    queryKey: standingOrderKeys.order(id),
    queryFn: () => client.send("getStandingOrder", standingOrderRoutes.getStandingOrder, { params: { orderId: id } }),
    retry: false,
  });
}

/** After any change: the order's new state is the answer, and the list holds it too. */
function useSettle() {
  const qc = useQueryClient();
  return (order: StandingOrder) => {
    qc.setQueryData(standingOrderKeys.order(order.id), order);
    void qc.invalidateQueries({ queryKey: standingOrderKeys.list() });
  };
}

export function useCreateStandingOrder() {
  const client = useClient();
  const settle = useSettle();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: NewStandingOrder) => client.send("createStandingOrder", standingOrderRoutes.createStandingOrder, { body }),
    onSuccess: (order) => {
      settle(order);
      // Its first day may be today: the payment then shows in the history.
      void qc.invalidateQueries({ queryKey: transactionKeys.all });
    },
  });
}

export function useUpdateStandingOrder(id: string) {
  const client = useClient();
  const settle = useSettle();
  return useMutation({
    mutationFn: (body: BodyOf<"updateStandingOrder">) =>
      client.send("updateStandingOrder", standingOrderRoutes.updateStandingOrder, { params: { orderId: id }, body }),
    onSuccess: settle,
  });
}

/** Pause, resume or cancel: one call each, the order's new state the answer. */
export function useStandingOrderAction(id: string) {
  const client = useClient();
  const settle = useSettle();
  return useMutation({
    mutationFn: (action: "pause" | "resume" | "cancel") => {
      const args = { params: { orderId: id } };
      if (action === "pause") return client.send("pauseStandingOrder", standingOrderRoutes.pauseStandingOrder, args);
      if (action === "resume") return client.send("resumeStandingOrder", standingOrderRoutes.resumeStandingOrder, args);
      return client.send("cancelStandingOrder", standingOrderRoutes.cancelStandingOrder, args);
    },
    onSuccess: settle,
  });
}
