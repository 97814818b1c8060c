import { beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { RefusedError } from "@mutua/client";
import { ErrorCode, SM, type FederationLink, type FederationLinkBalance, type FederationOverview } from "@mutua/domain";
import { consoleTests, gonette, gonetteLink, overviewOf, renderFederationScreen } from "./screen.testing";

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

const active = gonetteLink;
const endedBy = (by: "us" | "them", told: boolean): FederationLink => ({ ...active, state: "ended", ended: { at: "2025-04-02T10:00:00Z", by, told } });
const balance: FederationLinkBalance = { linkId: "l1", held: "12.50", owed: "-4.00" };
const overviewWith = (link: FederationLink): FederationOverview => overviewOf({ links: [link], balances: [balance] });

const renderScreen = renderFederationScreen;

const card = () => screen.findByRole("article", { name: "Gonette" });

describe("ending a link from its card", () => {
  it("asks first, saying what it means; Cancel ends nothing; confirmed, the card shows the end and the balance left", async () => {
    const ended = endedBy("us", true);
    const ops = {
      listFederationLinks: vi.fn().mockResolvedValueOnce(overviewWith(active)).mockResolvedValue(overviewWith(ended)),
      endFederationLink: vi.fn().mockResolvedValue(ended),
    };
    renderScreen(ops);
    const link = await card();
    // An active link has no record of an end, and shows no balance.
    expect(within(link).queryByRole("region", { name: /^Ended by / })).toBeNull();

    fireEvent.click(within(link).getByRole("button", { name: "End this link" }));
    let dialog = await screen.findByRole("dialog", { name: "End the link with Gonette?" });
    within(dialog).getByText("No payment will cross it any more, either way. Gonette is told now, or when its server answers.");
    within(dialog).getByText(/stays as it is, for the two boards to settle/);
    within(dialog).getByText(/cannot be switched on again/);
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(ops.endFederationLink).not.toHaveBeenCalled();

    fireEvent.click(within(await card()).getByRole("button", { name: "End this link" }));
    dialog = await screen.findByRole("dialog", { name: "End the link with Gonette?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "End the link" }));
    await waitFor(() => expect(toasts).toEqual([["success", "The link with Gonette is ended."]]));
    expect(ops.endFederationLink).toHaveBeenCalledWith(undefined, { linkId: "l1" });

    const after = await card();
    within(after).getByText("Ended");
    const record = within(after).getByRole("region", { name: /^Ended by us on / });
    within(record).getByText("Gonette knows it ended.");
    within(record).getByText("What we hold of their currency");
    within(record).getByText("12.50 GON");
    within(record).getByText("-4.00 DL");
    // Never switched on again from here: no terms to change, nothing to end.
    expect(within(after).queryByRole("button", { name: "End this link" })).toBeNull();
    expect(within(after).queryByRole("button", { name: "Change our terms" })).toBeNull();
  });

  it("says when the other association has not been told yet, and a refusal as the server words it", async () => {
    const ops = {
      listFederationLinks: vi.fn().mockResolvedValue(overviewWith(active)),
      endFederationLink: vi.fn().mockResolvedValueOnce(endedBy("us", false)),
    };
    renderScreen(ops);
    fireEvent.click(within(await card()).getByRole("button", { name: "End this link" }));
    fireEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "End the link" }));
    await waitFor(() => expect(toasts).toEqual([["success", "The link with Gonette is ended. Gonette is told when its server answers."]]));

    toasts.length = 0;
    ops.endFederationLink.mockRejectedValueOnce(
      new RefusedError(409, { code: ErrorCode.stateConflict, message: SM.federationLinkAlreadyEnded, msgid: SM.federationLinkAlreadyEnded }),
    );
    fireEvent.click(within(await card()).getByRole("button", { name: "End this link" }));
    fireEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "End the link" }));
    await waitFor(() => expect(toasts).toEqual([["error", { id: SM.federationLinkAlreadyEnded }]]));
  });

  it("shows a link the other association ended, not yet known there or known, and one whose server moved", async () => {
    renderScreen({ listFederationLinks: vi.fn().mockResolvedValue(overviewWith(endedBy("them", true))) });
    const link = await card();
    within(link).getByRole("region", { name: /^Ended by Gonette on / });
    expect(within(link).queryByText(/Not yet told/)).toBeNull();
    cleanup();

    renderScreen({ listFederationLinks: vi.fn().mockResolvedValue(overviewWith(endedBy("us", false))) });
    within(await card()).getByText("Not yet told to Gonette: it is told when its server answers.");
    cleanup();

    const moved: FederationLink = { ...active, moved: { from: "https://old.gonette.example", at: "2025-04-01T10:00:00Z" } };
    renderScreen({ listFederationLinks: vi.fn().mockResolvedValue(overviewWith(moved)) });
    const movedCard = await card();
    within(movedCard).getByText(gonette.url);
    within(movedCard).getByText(/^Moved here on .*, from https:\/\/old\.gonette\.example$/);
  });
});
