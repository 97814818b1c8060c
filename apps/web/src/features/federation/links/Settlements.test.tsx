import { beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { RefusedError } from "@mutua/client";
import { ErrorCode, SM, type FederationLinkBalance, type FederationOverview, type FederationSettlement } from "@mutua/domain";
import { consoleTests, gonetteLink, overviewOf, renderFederationScreen } from "./screen.testing";

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

/** 1 DL = 1.25 GON, both sides agreeing. */
const link = gonetteLink;
/** We owe Gonette 10.00 DL: it holds as much of ours, we hold -12.50 GON of theirs. */
const owing: FederationLinkBalance = { linkId: "l1", owed: "10.00", held: "-12.50" };
const proposal = (over: Partial<FederationSettlement> = {}): FederationSettlement => ({
  id: "fs_0123456789abcdefghij",
  linkId: "l1",
  proposedBy: "them",
  direction: "pay",
  amount: "4.00",
  peerAmount: "5.00",
  given: "theirs",
  note: "Transfer 2026-07",
  state: "proposed",
  told: true,
  createdAt: "2026-07-01T10:00:00Z",
  answeredAt: null,
  ...over,
});
const overviewWith = (settlements: FederationSettlement[], balance: FederationLinkBalance = owing): FederationOverview =>
  overviewOf({ settlements, balances: [balance] });

const renderScreen = renderFederationScreen;

const settlement = async () => screen.findByRole("region", { name: /^Settlement / });

describe("settling a link from its card", () => {
  it("says what is owed; the form shows both amounts and what is owed after, refuses past the debt as it is typed, then proposes", async () => {
    const proposed = proposal({ proposedBy: "us", note: "ref 42", told: true });
    const ops = {
      listFederationLinks: vi
        .fn()
        .mockResolvedValueOnce(overviewWith([]))
        .mockResolvedValue(overviewWith([proposed])),
      proposeFederationSettlement: vi.fn().mockResolvedValue(proposed),
    };
    renderScreen(ops);
    const card = await settlement();
    within(card).getByText("We owe Gonette 10.00 DL (12.50 GON).");
    fireEvent.click(within(card).getByRole("button", { name: "Settle" }));
    const dialog = await screen.findByRole("dialog", { name: "Settle with Gonette" });
    within(dialog).getByText("We owe Gonette 10.00 DL (12.50 GON).");

    const amount = within(dialog).getByLabelText("Amount to settle");
    fireEvent.change(amount, { target: { value: "4" } });
    within(dialog).getByText("4.00 DL (5.00 GON)");
    within(dialog).getByText("After it: we owe Gonette 6.00 DL (7.50 GON).");
    // Past what is owed: said under the field as typed, and nothing is sent.
    fireEvent.change(amount, { target: { value: "10,01" } });
    within(dialog).getByText(SM.federationSettlementPastDebt);
    fireEvent.click(within(dialog).getByRole("button", { name: "Propose the settlement" }));
    expect(ops.proposeFederationSettlement).not.toHaveBeenCalled();

    // In their currency: 5 GON is 4.00 DL; the whole debt leaves nothing.
    fireEvent.click(within(dialog).getByRole("radio", { name: "In GON" }));
    fireEvent.change(amount, { target: { value: "12.50" } });
    within(dialog).getByText("After it: nothing left to settle.");
    fireEvent.change(amount, { target: { value: "5" } });
    within(dialog).getByText("4.00 DL (5.00 GON)");
    fireEvent.change(within(dialog).getByLabelText("Note for both boards (optional)"), { target: { value: "ref 42" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Propose the settlement" }));
    await waitFor(() => expect(toasts).toEqual([["success", "Settlement proposed: Gonette's owners accept or decline it."]]));
    expect(ops.proposeFederationSettlement).toHaveBeenCalledWith({ amount: "5.00", currency: "theirs", note: "ref 42" }, { linkId: "l1" });
    expect(screen.queryByRole("dialog")).toBeNull();

    // Our proposal waits for their answer: no second Settle, a Withdraw asked first.
    const after = await settlement();
    await within(after).findByText("Waiting for the answer of Gonette's owners.");
    expect(within(after).queryByRole("button", { name: "Settle" })).toBeNull();
    within(after).getByRole("button", { name: "Withdraw" });
  });

  it("a refusal of the server is said under the field it names", async () => {
    const refusal = new RefusedError(400, {
      code: ErrorCode.validation,
      message: SM.federationSettlementNote,
      msgid: SM.federationSettlementNote,
      fields: { note: { msgid: SM.federationSettlementNote } },
    });
    const ops = { listFederationLinks: vi.fn().mockResolvedValue(overviewWith([])), proposeFederationSettlement: vi.fn().mockRejectedValue(refusal) };
    renderScreen(ops);
    fireEvent.click(within(await settlement()).getByRole("button", { name: "Settle" }));
    const dialog = await screen.findByRole("dialog", { name: "Settle with Gonette" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Propose the settlement" }));
    within(dialog).getByText("Type the amount to settle.");
    fireEvent.change(within(dialog).getByLabelText("Amount to settle"), { target: { value: "1" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Propose the settlement" }));
    await within(dialog).findByText(SM.federationSettlementNote);
    expect(toasts).toEqual([]);
  });

  it("a proposal of theirs: Accept asks first (it moves money), then posts; Cancel accepts nothing", async () => {
    const accepted = proposal({ state: "accepted", answeredAt: "2026-07-02T10:00:00Z" });
    const ops = {
      listFederationLinks: vi
        .fn()
        .mockResolvedValueOnce(overviewWith([proposal()]))
        .mockResolvedValue(overviewWith([accepted], { linkId: "l1", owed: "6.00", held: "-7.50" })),
      acceptFederationSettlement: vi.fn().mockResolvedValue(accepted),
    };
    renderScreen(ops);
    const card = await settlement();
    within(card).getByText("Gonette proposes that we pay it:");
    within(card).getByText("4.00 DL (5.00 GON)");
    within(card).getByText("Transfer 2026-07");
    within(card).getByText("After it: we owe Gonette 6.00 DL (7.50 GON).");

    fireEvent.click(within(card).getByRole("button", { name: "Accept" }));
    let dialog = await screen.findByRole("dialog", { name: "Accept this settlement?" });
    within(dialog).getByText("By us, in euros, to Gonette");
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(ops.acceptFederationSettlement).not.toHaveBeenCalled();

    fireEvent.click(within(card).getByRole("button", { name: "Accept" }));
    dialog = await screen.findByRole("dialog", { name: "Accept this settlement?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Accept" }));
    await waitFor(() => expect(toasts).toEqual([["success", "The settlement is accepted and posted on both sides."]]));
    expect(ops.acceptFederationSettlement).toHaveBeenCalledWith(undefined, { linkId: "l1", settlementId: "fs_0123456789abcdefghij" });

    // Then the history: settled, and what is owed now.
    const after = await settlement();
    await within(after).findByText("We owe Gonette 6.00 DL (7.50 GON).");
    within(after).getByText("Settled: posted on both sides.");
    expect(within(after).queryByRole("button", { name: "Accept" })).toBeNull();
  });

  it("Decline declines at once; one that no longer fits cannot be accepted, and a refusal is told as the server words it", async () => {
    const refusal = new RefusedError(409, {
      code: ErrorCode.stateConflict,
      message: SM.federationSettlementAnswered,
      msgid: SM.federationSettlementAnswered,
    });
    const ops = {
      listFederationLinks: vi.fn().mockResolvedValue(overviewWith([proposal()])),
      declineFederationSettlement: vi
        .fn()
        .mockRejectedValueOnce(refusal)
        .mockResolvedValue(proposal({ state: "declined", told: true })),
    };
    renderScreen(ops);
    const card = await settlement();
    fireEvent.click(within(card).getByRole("button", { name: "Decline" }));
    await waitFor(() => expect(toasts).toEqual([["error", { id: SM.federationSettlementAnswered }]]));
    fireEvent.click(within(card).getByRole("button", { name: "Decline" }));
    await waitFor(() => expect(toasts[1]).toEqual(["success", "The settlement is declined: nothing is posted."]));
    expect(ops.declineFederationSettlement).toHaveBeenCalledWith(undefined, { linkId: "l1", settlementId: "fs_0123456789abcdefghij" });
    cleanup();

    // What is owed fell below it since (a payment the other way): it says so, and Accept is off.
    renderScreen({ listFederationLinks: vi.fn().mockResolvedValue(overviewWith([proposal()], { linkId: "l1", owed: "2.00", held: "-2.50" })) });
    const fallen = await settlement();
    expect(within(fallen).getByRole("note").textContent).toBe("It no longer fits what is owed now: decline it.");
    expect((within(fallen).getByRole("button", { name: "Accept" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("our proposal not yet received says so; Withdraw asks first", async () => {
    const ours = proposal({ proposedBy: "us", told: false });
    const ops = {
      listFederationLinks: vi.fn().mockResolvedValue(overviewWith([ours])),
      withdrawFederationSettlement: vi.fn().mockResolvedValue({ ...ours, state: "withdrawn", told: true }),
    };
    renderScreen(ops);
    const card = await settlement();
    within(card).getByText("We proposed to pay Gonette:");
    within(card).getByText("Not yet received by Gonette: it is sent again until its server answers.");
    fireEvent.click(within(card).getByRole("button", { name: "Withdraw" }));
    const dialog = await screen.findByRole("dialog", { name: "Withdraw this settlement?" });
    expect(ops.withdrawFederationSettlement).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole("button", { name: "Withdraw" }));
    await waitFor(() => expect(toasts).toEqual([["success", "The settlement is withdrawn."]]));
  });

  it("nothing owed: no Settle; a link not active: no settlement at all", async () => {
    renderScreen({ listFederationLinks: vi.fn().mockResolvedValue(overviewWith([], { linkId: "l1", owed: "0.00", held: "0.00" })) });
    const card = await settlement();
    within(card).getByText("Neither association owes the other anything to settle.");
    expect(within(card).queryByRole("button", { name: "Settle" })).toBeNull();
    cleanup();
    renderScreen({
      listFederationLinks: vi.fn().mockResolvedValue({ ...overviewWith([]), links: [{ ...link, state: "replaced" }], balances: [] }),
    });
    await screen.findByRole("article", { name: "Gonette" });
    expect(screen.queryByRole("region", { name: /^Settlement / })).toBeNull();
  });

  it("an ended link still owing: its balance is settled from its card as an active link's", async () => {
    const ended = { ...link, state: "ended" as const, ended: { at: "2026-07-01T10:00:00Z", by: "them" as const, told: true } };
    renderScreen({ listFederationLinks: vi.fn().mockResolvedValue({ ...overviewWith([]), links: [ended] }) });
    const card = await settlement();
    within(card).getByText("We owe Gonette 10.00 DL (12.50 GON).");
    within(card).getByRole("button", { name: "Settle" });
  });
});
