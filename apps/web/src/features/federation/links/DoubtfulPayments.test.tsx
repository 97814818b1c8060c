import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { RefusedError } from "@mutua/client";
import { ErrorCode, SM, type FederationDoubtfulPayment, type FederationOverview } from "@mutua/domain";
import { consoleTests, overviewOf, renderFederationScreen } from "./screen.testing";

const toasts = vi.hoisted(() => [] as unknown[]);
vi.mock("../../../lib/toast", () => ({
  toast: {
    error: (m: unknown) => toasts.push(["error", m]),
    success: (m: unknown) => toasts.push(["success", m]),
  },
}));

consoleTests();
beforeEach(() => {
  toasts.length = 0;
});

/** A payment of Alice's held for `days` days without an answer. */
const held = (id: string, days: number, endable: boolean): FederationDoubtfulPayment => ({
  id,
  linkId: "l1",
  direction: "out",
  member: "Alice Martin",
  amount: "2.00",
  peerAmount: "2.50",
  createdAt: "2025-03-01T10:00:00Z",
  days,
  endableAt: "2025-03-08T10:00:00Z",
  endable,
  forwardedFrom: null,
  ended: null,
});
const overviewWith = (payments: FederationDoubtfulPayment[]): FederationOverview => overviewOf({ payments });

const renderScreen = renderFederationScreen;

const doubt = async () => screen.findByRole("region", { name: /^Payments in doubt / });

describe("a link's payments in doubt", () => {
  it("lists each with its age; only one past the stated days can be ended, after a confirmation, and then shows the record", async () => {
    const recent = held("fp_recent_payment_0001", 2, false);
    const old = held("fp_old_payment_000001", 9, true);
    const ended: FederationDoubtfulPayment = { ...old, endable: false, ended: { at: "2025-03-10T10:00:00Z", days: 9, outcome: "waiting" } };
    const ops = {
      listFederationLinks: vi
        .fn()
        .mockResolvedValueOnce(overviewWith([recent, old]))
        .mockResolvedValue(overviewWith([recent, ended])),
      endFederationPayment: vi.fn().mockResolvedValue(ended),
    };
    renderScreen(ops);
    const list = await doubt();
    expect(within(list).getByText("Money held for 2 days, without an answer from Gonette")).toBeTruthy();
    expect(within(list).getByText("Money held for 9 days, without an answer from Gonette")).toBeTruthy();
    expect(within(list).getAllByText("2.00 DL (2.50 GON)")).toHaveLength(2);
    // The recent one says from when; only the old one has the action.
    within(list).getByText(/^Can be ended from .*, if Gonette still has not answered\.$/);
    const buttons = within(list).getAllByRole("button", { name: "End this payment" });
    expect(buttons).toHaveLength(1);

    fireEvent.click(buttons[0]!);
    const dialog = await screen.findByRole("dialog", { name: "End this payment?" });
    within(dialog).getByText("2.00 DL goes back to Alice Martin's account, and Gonette is told when its server answers.");
    // Nothing is ended before the confirmation; Cancel ends nothing.
    expect(ops.endFederationPayment).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole("button", { name: "End this payment" }));
    await waitFor(() => expect(toasts).toEqual([["success", "The payment is ended: the money is back in Alice Martin's account."]]));
    expect(ops.endFederationPayment).toHaveBeenCalledWith(undefined, { linkId: "l1", paymentId: "fp_old_payment_000001" });

    // The record: ended after 9 days, not yet told to the other association; no action any more.
    const after = await doubt();
    await within(after).findByText("Ended by the owners after 9 days without an answer from Gonette");
    within(after).getByText("Not yet told to Gonette: it is told when its server answers.");
    expect(within(after).queryByRole("button", { name: "End this payment" })).toBeNull();
  });

  it("Cancel ends nothing; a refusal is told as the server words it", async () => {
    const refusal = new RefusedError(409, {
      code: ErrorCode.stateConflict,
      message: SM.federationPaymentAlreadyEnded,
      msgid: SM.federationPaymentAlreadyEnded,
    });
    const ops = {
      listFederationLinks: vi.fn().mockResolvedValue(overviewWith([held("fp_old_payment_000001", 9, true)])),
      endFederationPayment: vi.fn().mockRejectedValue(refusal),
    };
    renderScreen(ops);
    fireEvent.click(within(await doubt()).getByRole("button", { name: "End this payment" }));
    const dialog = await screen.findByRole("dialog", { name: "End this payment?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(ops.endFederationPayment).not.toHaveBeenCalled();

    fireEvent.click(within(await doubt()).getByRole("button", { name: "End this payment" }));
    fireEvent.click(within(await screen.findByRole("dialog", { name: "End this payment?" })).getByRole("button", { name: "End this payment" }));
    await waitFor(() => expect(toasts).toEqual([["error", { id: SM.federationPaymentAlreadyEnded }]]));
  });

  it("states a conflict clearly: the other association had made the payment the owners ended", async () => {
    const conflict: FederationDoubtfulPayment = {
      ...held("fp_old_payment_000001", 12, false),
      ended: { at: "2025-03-13T10:00:00Z", days: 12, outcome: "conflict" },
    };
    renderScreen({ listFederationLinks: vi.fn().mockResolvedValue(overviewWith([conflict])) });
    const list = await doubt();
    within(list).getByText("Ended by the owners after 12 days without an answer from Gonette");
    const note = within(list).getByRole("note");
    expect(note.textContent).toBe("Gonette had made this payment: its member was paid there and ours refunded here. A conflict for the two boards to settle.");
  });

  it("a payment forwarded for a member of another association: named as theirs, ended back to their association", async () => {
    const forwarded: FederationDoubtfulPayment = { ...held("fp_forwarded_payment_1", 9, true), member: "Zoé Roux", forwardedFrom: "Réseau Rhône-Alpes" };
    const ops = {
      listFederationLinks: vi.fn().mockResolvedValue(overviewWith([forwarded])),
      endFederationPayment: vi.fn().mockResolvedValue({ ...forwarded, endable: false, ended: { at: "2025-03-10T10:00:00Z", days: 9, outcome: "waiting" } }),
    };
    renderScreen(ops);
    const list = await doubt();
    within(list).getByText("A member of Réseau Rhône-Alpes, paying through us");
    fireEvent.click(within(list).getByRole("button", { name: "End this payment" }));
    const dialog = await screen.findByRole("dialog", { name: "End this payment?" });
    within(dialog).getByText(
      "2.00 DL goes back to Réseau Rhône-Alpes, which returns it to Zoé Roux when its server next asks, and Gonette is told when its server answers.",
    );
    fireEvent.click(within(dialog).getByRole("button", { name: "End this payment" }));
    await waitFor(() =>
      expect(toasts).toEqual([["success", "The payment is ended: Réseau Rhône-Alpes returns the money to Zoé Roux when its server next asks."]]),
    );
  });

  it("lists nothing for a link without payments in doubt", async () => {
    renderScreen({ listFederationLinks: vi.fn().mockResolvedValue(overviewWith([])) });
    await screen.findByRole("article", { name: "Gonette" });
    expect(screen.queryByRole("region", { name: /^Payments in doubt / })).toBeNull();
  });
});
