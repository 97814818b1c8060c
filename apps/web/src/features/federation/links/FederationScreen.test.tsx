import { beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { RefusedError } from "@mutua/client";
import { ErrorCode, SM, type FederationLink, type FederationOverview } from "@mutua/domain";
import { consoleTests, overviewOf, renderFederationScreen } from "./screen.testing";
import { rateText } from "./terms";

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

const eusko = {
  name: "Eusko",
  url: "https://eusko.example",
  currencyName: "Eusko",
  currencySymbol: "EUS",
  publicKey: "k-eusko",
  fingerprint: "fedcba9876543210fedcba9876543210",
};
const florain = {
  ...eusko,
  name: "Le Florain",
  url: "https://florain.example",
  currencyName: "Florain",
  currencySymbol: "FLO",
  fingerprint: "aaaabbbbccccdddd1111222233334444",
};

const active: FederationLink = {
  id: "l1",
  peerUrl: eusko.url,
  peer: eusko,
  role: "inviter",
  state: "active",
  waitingFor: null,
  terms: { ourValue: "1.25", theirValue: "1", trustLimit: "200.00", enabled: true },
  peerTerms: { ourValue: "1", theirValue: "1.25", trustLimit: "150.00", enabled: true },
  ratesAgree: true,
  termsPending: false,
  forward: false,
  ended: null,
  moved: null,
  createdAt: "2025-03-01T10:00:00Z",
};
const toConfirm: FederationLink = {
  id: "l2",
  peerUrl: florain.url,
  peer: florain,
  role: "inviter",
  state: "accepted",
  waitingFor: "us",
  terms: null,
  peerTerms: { ourValue: "2", theirValue: "1", trustLimit: "50.00", enabled: true },
  ratesAgree: false,
  termsPending: false,
  forward: false,
  ended: null,
  moved: null,
  createdAt: "2025-03-02T10:00:00Z",
};
const overview: FederationOverview = overviewOf({ links: [active, toConfirm] });

type Op =
  | "listFederationLinks"
  | "createFederationInvitation"
  | "previewFederationInvitation"
  | "acceptFederationInvitation"
  | "confirmFederationLink"
  | "setFederationLinkTerms"
  | "setFederationLinkForwarding";

const renderScreen = (ops: Partial<Record<Op, Mock>>) => renderFederationScreen(ops);

const type = (within: HTMLElement, label: string, value: string) =>
  fireEvent.change(
    screen.getAllByLabelText(label).find((el) => within.contains(el))!,
    { target: { value } },
  );
const card = (name: string) => screen.getByRole("article", { name });

describe("the linked associations", () => {
  it("shows this server, an active link with both sides' terms, and one waiting for our confirmation", async () => {
    renderScreen({ listFederationLinks: vi.fn().mockResolvedValue(overview) });
    const own = await screen.findByRole("region", { name: "This association's server" });
    within(own).getByText("La Dalle");
    within(own).getByText("Dalle (DL)");
    within(own).getByText("0123 4567 89ab cdef 0123 4567 89ab cdef");

    const linked = card("Eusko");
    within(linked).getByText("Linked");
    within(linked).getByText("fedc ba98 7654 3210 fedc ba98 7654 3210");
    // Both rates said the same way round: one of ours in theirs.
    expect(within(linked).getAllByText("1 DL = 1.25 EUS")).toHaveLength(2);
    within(linked).getByText("We hold at most 200.00 EUS of theirs.");
    within(linked).getByText("They hold at most 150.00 DL of ours.");
    expect(within(linked).queryByText(/count different rates/)).toBeNull();
    within(linked).getByRole("button", { name: "Change our terms" });

    const waiting = card("Le Florain");
    within(waiting).getByText("Accepted by them: confirm it");
    within(waiting).getByText("Not set yet");
    within(waiting).getByText("1 DL = 0.50 FLO");
    // The confirmation is the view's one primary action; the invitation steps back.
    expect(within(waiting).getByRole("button", { name: "Confirm the link" }).className).toContain("primary");
    expect(screen.getByRole("button", { name: "Invite an association" }).className).not.toContain("primary");
  });

  it("warns when both sides' rates differ", async () => {
    const differ = { ...active, peerTerms: { ...active.peerTerms!, theirValue: "1.5" }, ratesAgree: false };
    renderScreen({
      listFederationLinks: vi.fn().mockResolvedValue(overviewOf({ links: [differ] })),
    });
    const linked = await screen.findByRole("article", { name: "Eusko" });
    within(linked).getByText("The two associations count different rates: no payment can cross until they agree.");
    within(linked).getByText("1 DL = 1.50 EUS");
  });

  it("shows a link replaced by a newer one with the same server as such, with nothing left to do on it", async () => {
    const replaced: FederationLink = { ...active, id: "l9", state: "replaced", waitingFor: null };
    renderScreen({
      listFederationLinks: vi.fn().mockResolvedValue(overviewOf({ links: [replaced] })),
    });
    const old = await screen.findByRole("article", { name: "Eusko" });
    within(old).getByText("Replaced by a newer link with this server");
    expect(within(old).queryByRole("button")).toBeNull();
  });

  it("invites: shows the code to send, with this server's fingerprint to compare, and copies it", async () => {
    const invited: FederationLink = {
      ...toConfirm,
      id: "l3",
      peerUrl: "",
      peer: null,
      state: "invited",
      waitingFor: "them",
      peerTerms: null,
      createdAt: "2025-03-03T10:00:00Z",
    };
    const ops = {
      listFederationLinks: vi
        .fn()
        .mockResolvedValueOnce(overviewOf({ links: [] }))
        .mockResolvedValue(overviewOf({ links: [invited] })),
      createFederationInvitation: vi.fn().mockResolvedValue({ link: invited, code: "MUTUA-LINK:abc.def.ghi" }),
    };
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    renderScreen(ops);
    await screen.findByText("No link yet: invite an association, or accept the invitation of one.");
    const invite = screen.getByRole("button", { name: "Invite an association" });
    expect(invite.className).toContain("primary");
    fireEvent.click(invite);
    const dialog = await screen.findByRole("dialog", { name: "Invitation code" });
    expect((within(dialog).getByLabelText("Invitation code") as HTMLTextAreaElement).value).toBe("MUTUA-LINK:abc.def.ghi");
    expect(within(dialog).getByLabelText("Invitation code").hasAttribute("readonly")).toBe(true);
    within(dialog).getByText("0123 4567 89ab cdef 0123 4567 89ab cdef");
    fireEvent.click(within(dialog).getByRole("button", { name: "Copy the code" }));
    await waitFor(() => expect(toasts).toEqual([["success", "The code is copied."]]));
    expect(writeText).toHaveBeenCalledWith("MUTUA-LINK:abc.def.ghi");
    // The new link is in the list, named by its date until the other side answers.
    within(screen.getByRole("list")).getByText("Invitation sent, not answered yet");
    fireEvent.click(within(dialog).getByRole("button", { name: "Done" }));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("accepts an invitation: shows who invites (name, address, fingerprint) before the Accept button, then posts the code and this side's terms", async () => {
    const accepted: FederationLink = { ...active, id: "l4", role: "invitee", state: "accepted", waitingFor: "them", peerTerms: null };
    const ops = {
      listFederationLinks: vi
        .fn()
        .mockResolvedValueOnce(overviewOf({ links: [] }))
        .mockResolvedValue(overviewOf({ links: [accepted] })),
      previewFederationInvitation: vi.fn().mockResolvedValue(eusko),
      acceptFederationInvitation: vi.fn().mockResolvedValue(accepted),
    };
    renderScreen(ops);
    fireEvent.click(await screen.findByRole("button", { name: "Accept an invitation" }));
    const dialog = await screen.findByRole("dialog", { name: "Accept an invitation" });
    // First the code alone: nothing to accept before the inviting server was checked.
    expect(within(dialog).queryByRole("button", { name: "Accept the invitation" })).toBeNull();
    expect(within(dialog).queryByLabelText("1 DL is worth")).toBeNull();
    fireEvent.click(within(dialog).getByRole("button", { name: "Check the invitation" }));
    within(dialog).getByText("Paste the whole code the other association sent you.");
    expect(ops.previewFederationInvitation).not.toHaveBeenCalled();

    type(dialog, "Invitation code", "  MUTUA-LINK:abc.def.ghi\n");
    fireEvent.click(within(dialog).getByRole("button", { name: "Check the invitation" }));
    const who = await within(dialog).findByRole("region", { name: "Who invites" });
    expect(ops.previewFederationInvitation).toHaveBeenCalledWith({ code: "MUTUA-LINK:abc.def.ghi" }, undefined);
    within(who).getByText("Eusko");
    within(who).getByText("https://eusko.example");
    within(who).getByText("fedc ba98 7654 3210 fedc ba98 7654 3210");
    within(who).getByText("Before accepting, compare this fingerprint aloud with their owners: it must be the one their own screen shows.");
    expect(document.activeElement).toBe(who);
    expect(ops.acceptFederationInvitation).not.toHaveBeenCalled();

    // Then this side's terms, their currency named: the same value on both sides, some trust, on.
    expect((within(dialog).getByLabelText("1 DL is worth") as HTMLInputElement).value).toBe("1");
    expect((within(dialog).getByLabelText("1 EUS is worth") as HTMLInputElement).value).toBe("1");
    expect((within(dialog).getByLabelText("Most of their currency we hold") as HTMLInputElement).value).toBe("100.00");
    type(dialog, "1 DL is worth", "1,25");
    type(dialog, "Most of their currency we hold", "250");
    within(dialog).getByText("1 DL = 1.25 EUS");
    fireEvent.click(within(dialog).getByRole("button", { name: "Accept the invitation" }));
    await waitFor(() => expect(toasts).toEqual([["success", "Invitation accepted: the other association confirms it now."]]));
    expect(ops.acceptFederationInvitation).toHaveBeenCalledWith(
      { code: "MUTUA-LINK:abc.def.ghi", terms: { ourValue: "1.25", theirValue: "1", trustLimit: "250.00", enabled: true } },
      undefined,
    );
    expect(screen.queryByRole("dialog")).toBeNull();
    within(card("Eusko")).getByText("Waiting for the other association to confirm");
  });

  it("refuses to go on with an invitation whose server does not hold the key the code names: said under the code, no Accept button", async () => {
    const mismatch = new RefusedError(400, {
      code: ErrorCode.validation,
      message: SM.federationFingerprintMismatch,
      msgid: SM.federationFingerprintMismatch,
    });
    const ops = {
      listFederationLinks: vi.fn().mockResolvedValue(overviewOf({ links: [] })),
      previewFederationInvitation: vi.fn().mockRejectedValue(mismatch),
      acceptFederationInvitation: vi.fn(),
    };
    renderScreen(ops);
    fireEvent.click(await screen.findByRole("button", { name: "Accept an invitation" }));
    const dialog = await screen.findByRole("dialog");
    type(dialog, "Invitation code", "MUTUA-LINK:someone.else.key");
    fireEvent.click(within(dialog).getByRole("button", { name: "Check the invitation" }));
    await within(dialog).findByText("The server at this address does not hold the key the invitation names: nothing was linked.");
    expect(within(dialog).getByLabelText("Invitation code").getAttribute("aria-invalid")).toBe("true");
    expect(within(dialog).queryByRole("region", { name: "Who invites" })).toBeNull();
    expect(within(dialog).queryByRole("button", { name: "Accept the invitation" })).toBeNull();
    expect(ops.acceptFederationInvitation).not.toHaveBeenCalled();
    expect(toasts).toEqual([]);
  });

  it("confirms a link with this side's terms, starting from the other side's rate turned round", async () => {
    const confirmed: FederationLink = {
      ...toConfirm,
      state: "active",
      waitingFor: null,
      terms: { ourValue: "1", theirValue: "2", trustLimit: "80.00", enabled: true },
      ratesAgree: true,
    };
    const ops = {
      listFederationLinks: vi
        .fn()
        .mockResolvedValueOnce(overview)
        .mockResolvedValue(overviewOf({ links: [active, confirmed] })),
      confirmFederationLink: vi.fn().mockResolvedValue(confirmed),
    };
    renderScreen(ops);
    await screen.findByRole("article", { name: "Le Florain" });
    fireEvent.click(within(card("Le Florain")).getByRole("button", { name: "Confirm the link" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm the link with Le Florain" });
    // Their fingerprint, to compare aloud before confirming.
    within(dialog).getByText("aaaa bbbb cccc dddd 1111 2222 3333 4444");
    expect((within(dialog).getByLabelText("1 DL is worth") as HTMLInputElement).value).toBe("1");
    expect((within(dialog).getByLabelText("1 FLO is worth") as HTMLInputElement).value).toBe("2");
    type(dialog, "Most of their currency we hold", "80");
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirm the link" }));
    await waitFor(() => expect(toasts).toEqual([["success", "The two associations are linked."]]));
    expect(ops.confirmFederationLink).toHaveBeenCalledWith({ terms: { ourValue: "1", theirValue: "2", trustLimit: "80.00", enabled: true } }, { linkId: "l2" });
    await waitFor(() => within(card("Le Florain")).getByText("Linked"));
  });

  it("says whether the other association received our newest terms, and when saved terms are not received yet", async () => {
    const pending: FederationLink = { ...active, terms: { ...active.terms!, enabled: false }, termsPending: true };
    const ops = {
      listFederationLinks: vi
        .fn()
        .mockResolvedValueOnce(overviewOf({ links: [active] }))
        .mockResolvedValue(overviewOf({ links: [pending] })),
      setFederationLinkTerms: vi.fn().mockResolvedValue(pending),
    };
    renderScreen(ops);
    const linked = await screen.findByRole("article", { name: "Eusko" });
    within(linked).getByText("Received by Eusko");
    fireEvent.click(within(linked).getByRole("button", { name: "Change our terms" }));
    const dialog = await screen.findByRole("dialog", { name: "Our terms for Eusko" });
    fireEvent.click(within(dialog).getByRole("switch", { name: "Payments across this link" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Save the terms" }));
    await waitFor(() =>
      expect(toasts).toEqual([["success", "The terms are saved. Eusko has not received them yet: they are sent again until its server answers."]]),
    );
    await waitFor(() => within(card("Eusko")).getByText("Not yet received by Eusko"));
    expect(within(card("Eusko")).queryByText("Received by Eusko")).toBeNull();
  });

  it("switches an active link off with new terms", async () => {
    const off = { ...active, terms: { ...active.terms!, enabled: false } };
    const ops = {
      listFederationLinks: vi.fn().mockResolvedValue(overviewOf({ links: [active] })),
      setFederationLinkTerms: vi.fn().mockResolvedValue(off),
    };
    renderScreen(ops);
    fireEvent.click(await screen.findByRole("button", { name: "Change our terms" }));
    const dialog = await screen.findByRole("dialog", { name: "Our terms for Eusko" });
    expect((within(dialog).getByLabelText("1 DL is worth") as HTMLInputElement).value).toBe("1.25");
    fireEvent.click(within(dialog).getByRole("switch", { name: "Payments across this link" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Save the terms" }));
    await waitFor(() => expect(toasts).toEqual([["success", "The terms are saved."]]));
    expect(ops.setFederationLinkTerms).toHaveBeenCalledWith({ terms: { ...active.terms, enabled: false } }, { linkId: "l1" });
  });

  it("withdraws an unanswered invitation after asking, and it leaves the list", async () => {
    const invited: FederationLink = {
      ...active,
      id: "l9",
      peerUrl: "",
      peer: null,
      state: "invited",
      waitingFor: "them",
      terms: null,
      peerTerms: null,
      ratesAgree: false,
    };
    const ops = {
      listFederationLinks: vi
        .fn()
        .mockResolvedValueOnce(overviewOf({ links: [invited] }))
        .mockResolvedValue(overviewOf({ links: [] })),
      withdrawFederationInvitation: vi.fn().mockResolvedValue({ ok: true }),
    };
    renderScreen(ops);
    fireEvent.click(await screen.findByRole("button", { name: "Withdraw the invitation" }));
    const dialog = await screen.findByRole("dialog", { name: "Withdraw this invitation?" });
    expect(ops.withdrawFederationInvitation).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole("button", { name: "Withdraw the invitation" }));
    await waitFor(() => expect(toasts).toEqual([["success", "The invitation is withdrawn: its code opens nothing any more."]]));
    expect(ops.withdrawFederationInvitation).toHaveBeenCalledWith(undefined, { linkId: "l9" });
    await screen.findByText("No link yet: invite an association, or accept the invitation of one.");
  });

  it("an owner turns forwarding on for a link, told it is saved, and sees whom a linked server forwards our payments to, and whose it forwards to us", async () => {
    const forwarding = { ...active, forward: true };
    const reach = [{ linkId: active.id, name: "Association C", url: "https://c.example", currencySymbol: "CCC" }];
    const reachedBy = [{ linkId: active.id, name: "Association D", url: "https://d.example" }];
    const ops = {
      listFederationLinks: vi
        .fn()
        .mockResolvedValueOnce(overviewOf({ links: [active] }))
        .mockResolvedValue(overviewOf({ reach, reachedBy, links: [forwarding] })),
      setFederationLinkForwarding: vi.fn().mockResolvedValue(forwarding),
    };
    renderScreen(ops);
    const name = active.peer!.name;
    const toggle = await screen.findByRole("switch", { name: `Forward payments from ${name} to our other linked associations` });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    fireEvent.click(toggle);
    await waitFor(() => expect(toasts).toEqual([["success", `Members of ${name} can now pay our other linked associations through us.`]]));
    expect(ops.setFederationLinkForwarding).toHaveBeenCalledWith({ forward: true }, { linkId: active.id });
    await screen.findByText(`Through ${name}, our members can also pay: Association C (CCC)`);
    // And whose payments it forwards to us: their apps are offered on our payment links.
    screen.getByText(`Through ${name}, members of these associations can also pay us: Association D`);
    expect((screen.getByRole("switch", { name: `Forward payments from ${name} to our other linked associations` }) as HTMLInputElement).checked).toBe(true);
  });

  it("a value that is not one is said under its field before anything is sent", async () => {
    const ops = {
      listFederationLinks: vi.fn().mockResolvedValue(overviewOf({ links: [active] })),
      setFederationLinkTerms: vi.fn(),
    };
    renderScreen(ops);
    fireEvent.click(await screen.findByRole("button", { name: "Change our terms" }));
    const dialog = await screen.findByRole("dialog");
    type(dialog, "1 EUS is worth", "1.23456");
    fireEvent.click(within(dialog).getByRole("button", { name: "Save the terms" }));
    within(dialog).getByText("Type a positive number with at most 4 decimals, such as 1 or 1.25.");
    expect(document.activeElement).toBe(within(dialog).getByLabelText("1 EUS is worth"));
    expect(ops.setFederationLinkTerms).not.toHaveBeenCalled();
  });

  it("shows the server's refusal, and keeps the dialog open", async () => {
    const ops = {
      listFederationLinks: vi.fn().mockResolvedValue(overviewOf({ links: [] })),
      previewFederationInvitation: vi.fn().mockResolvedValue(eusko),
      acceptFederationInvitation: vi
        .fn()
        .mockRejectedValue(new RefusedError(409, { code: ErrorCode.stateConflict, message: SM.federationInvitationGone, msgid: SM.federationInvitationGone })),
    };
    renderScreen(ops);
    fireEvent.click(await screen.findByRole("button", { name: "Accept an invitation" }));
    const dialog = await screen.findByRole("dialog");
    type(dialog, "Invitation code", "MUTUA-LINK:used.code.here");
    fireEvent.click(within(dialog).getByRole("button", { name: "Check the invitation" }));
    fireEvent.click(await within(dialog).findByRole("button", { name: "Accept the invitation" }));
    await waitFor(() => expect(toasts).toEqual([["error", { id: SM.federationInvitationGone }]]));
    expect(screen.getByRole("dialog")).toBeTruthy();
  });

  it("shows a refused code under its field", async () => {
    const refusal = new RefusedError(400, { code: ErrorCode.validation, message: "invalid", fields: { code: { msgid: SM.federationCodeInvalid } } });
    const ops = {
      listFederationLinks: vi.fn().mockResolvedValue(overviewOf({ links: [] })),
      previewFederationInvitation: vi.fn().mockRejectedValue(refusal),
    };
    renderScreen(ops);
    fireEvent.click(await screen.findByRole("button", { name: "Accept an invitation" }));
    const dialog = await screen.findByRole("dialog");
    type(dialog, "Invitation code", "MUTUA-LINK:garbled");
    fireEvent.click(within(dialog).getByRole("button", { name: "Check the invitation" }));
    await within(dialog).findByText(SM.federationCodeInvalid);
    expect(within(dialog).getByLabelText("Invitation code").getAttribute("aria-invalid")).toBe("true");
    expect(toasts).toEqual([]);
  });
});

describe("rateText", () => {
  it("is one unit of the first currency in the second, to at most 4 decimals, rounded half up", () => {
    expect(rateText("1.25", "1")).toBe("1.25");
    expect(rateText("1", "1.25")).toBe("0.8");
    expect(rateText("1", "3")).toBe("0.3333");
    expect(rateText("2", "3")).toBe("0.6667");
    expect(rateText("0", "1")).toBeNull();
  });
});
