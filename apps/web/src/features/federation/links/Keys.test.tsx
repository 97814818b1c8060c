import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { RefusedError } from "@mutua/client";
import { ErrorCode, SM, type FederationKeys, type FederationOverview } from "@mutua/domain";
import { consoleTests, gonette, gonetteLink, overviewOf, renderFederationScreen } from "./screen.testing";
import { dalleServer } from "../fixtures.testing";

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

const link = gonetteLink;
const overview: FederationOverview = overviewOf();
const NEW_KEY = "99998888777766665555444433332222";
const keys = (over: Partial<FederationKeys> = {}): FederationKeys => ({
  keys: [{ fingerprint: dalleServer.fingerprint, state: "current", createdAt: "2025-03-01T10:00:00Z", retiredAt: null, revokedAt: null }],
  links: [{ linkId: "l1", knownByThem: null, peerKeyChange: null }],
  ...over,
});
const rotated = (revoked: boolean): FederationKeys =>
  keys({
    keys: [
      { fingerprint: NEW_KEY, state: "current", createdAt: "2025-04-01T10:00:00Z", retiredAt: null, revokedAt: null },
      {
        fingerprint: dalleServer.fingerprint,
        state: revoked ? "revoked" : "retired",
        createdAt: "2025-03-01T10:00:00Z",
        retiredAt: "2025-04-01T10:00:00Z",
        revokedAt: revoked ? "2025-04-01T10:00:00Z" : null,
      },
    ],
  });

const renderScreen = renderFederationScreen;

const serverCard = async () => screen.findByRole("region", { name: "This association's server" });

describe("this server's key", () => {
  it("makes a new key only after its confirmation, and says which", async () => {
    const ops = {
      listFederationLinks: vi.fn().mockResolvedValue(overview),
      getFederationKeys: vi.fn().mockResolvedValueOnce(keys()).mockResolvedValue(rotated(false)),
      rotateFederationKey: vi.fn().mockResolvedValue(rotated(false)),
    };
    renderScreen(ops);
    const card = await serverCard();
    fireEvent.click(await within(card).findByRole("button", { name: "Make a new key" }));
    const dialog = await screen.findByRole("dialog", { name: "Make a new key?" });
    within(dialog).getByText("Each linked association is told the new key by this server, and understands the old one until it has it.");
    expect(ops.rotateFederationKey).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole("button", { name: "Make a new key" }));
    await waitFor(() =>
      expect(toasts).toEqual([["success", "This server has a new key: 9999 8888 7777 6666 5555 4444 3333 2222. The linked associations are told it."]]),
    );
    expect(ops.rotateFederationKey).toHaveBeenCalledWith({ revoke: false }, undefined);
    expect(screen.queryByRole("dialog")).toBeNull();
    // The key it replaced, listed apart.
    const earlier = await within(card).findByText("Earlier keys");
    fireEvent.click(earlier);
    within(card).getByText(/^Replaced on /);
  });

  it("a leaked key: Cancel makes nothing; confirmed, every older key is revoked and the owner is told to read the new one aloud", async () => {
    const ops = {
      listFederationLinks: vi.fn().mockResolvedValue(overview),
      getFederationKeys: vi
        .fn()
        .mockResolvedValueOnce(keys({ links: [{ linkId: "l1", knownByThem: dalleServer.fingerprint, peerKeyChange: null }] }))
        .mockResolvedValue(rotated(true)),
      rotateFederationKey: vi.fn().mockResolvedValue(rotated(true)),
    };
    renderScreen(ops);
    const card = await serverCard();
    // A linked association not told the current key yet is named.
    await within(card).findByText(
      "Not yet told our new key: Gonette. It is sent again until their servers answer; until then, this server signs to them with the key they know.",
    );
    const leaked = within(card).getByRole("button", { name: "This key leaked: make a new one and never accept it again" });
    fireEvent.click(leaked);
    let dialog = await screen.findByRole("dialog", { name: "This key leaked?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(ops.rotateFederationKey).not.toHaveBeenCalled();

    fireEvent.click(leaked);
    dialog = await screen.findByRole("dialog", { name: "This key leaked?" });
    within(dialog).getByText(/call each one's owners, read them the new fingerprint aloud/);
    fireEvent.click(within(dialog).getByRole("button", { name: "Revoke it and make a new one" }));
    await waitFor(() =>
      expect(toasts).toEqual([
        ["success", "The leaked key is revoked. Read the new fingerprint, 9999 8888 7777 6666 5555 4444 3333 2222, aloud to each linked association's owners."],
      ]),
    );
    expect(ops.rotateFederationKey).toHaveBeenCalledWith({ revoke: true }, undefined);
    fireEvent.click(await within(card).findByText("Earlier keys"));
    within(card).getByText(/^Revoked on /);
  });
});

describe("a link's key", () => {
  const card = () => screen.findByRole("article", { name: "Gonette" });

  it("says their key changed, with the new fingerprint and who changed it", async () => {
    renderScreen({
      listFederationLinks: vi.fn().mockResolvedValue(overview),
      getFederationKeys: vi.fn().mockResolvedValue(
        keys({
          links: [{ linkId: "l1", knownByThem: null, peerKeyChange: { previousFingerprint: "1".repeat(32), at: "2025-04-02T10:00:00Z", by: "peer" } }],
        }),
      ),
    });
    const section = await within(await card()).findByRole("region", { name: /^Their key changed / });
    within(section).getByText("fedc ba98 7654 3210 fedc ba98 7654 3210");
    within(section).getByText("Announced by their server, which proved it holds it. If their owners did not tell you, call them and compare it aloud.");
  });

  it("replaces their key with the fingerprint read aloud: checked as typed, then by the server; a refusal said under the field", async () => {
    const replaced = { ...link, peer: { ...gonette, fingerprint: NEW_KEY } };
    const ops = {
      listFederationLinks: vi.fn().mockResolvedValue(overview),
      getFederationKeys: vi.fn().mockResolvedValue(keys()),
      replaceFederationPeerKey: vi
        .fn()
        .mockRejectedValueOnce(
          new RefusedError(400, { code: ErrorCode.validation, message: SM.federationFingerprintNotTheirs, msgid: SM.federationFingerprintNotTheirs }),
        )
        .mockResolvedValue(replaced),
    };
    renderScreen(ops);
    const section = await within(await card()).findByRole("region", { name: /^Their key / });
    fireEvent.click(within(section).getByRole("button", { name: "Replace their key" }));
    const dialog = await screen.findByRole("dialog", { name: "Replace the key of Gonette" });
    const field = within(dialog).getByLabelText("Their new fingerprint");
    const submit = within(dialog).getByRole("button", { name: "Replace their key" });

    // Not a fingerprint: said at once, nothing asked of the server.
    fireEvent.change(field, { target: { value: "1234 abcd" } });
    fireEvent.click(submit);
    await within(dialog).findByText("Type the fingerprint their owners read to you: 32 digits and letters from a to f.");
    expect(field.getAttribute("aria-invalid")).toBe("true");
    expect(ops.replaceFederationPeerKey).not.toHaveBeenCalled();

    // Another key than their server's: the server's refusal, under the field; nothing replaced.
    fireEvent.change(field, { target: { value: "0000 1111 2222 3333 4444 5555 6666 7777" } });
    fireEvent.click(submit);
    await within(dialog).findByText(SM.federationFingerprintNotTheirs);
    expect(ops.replaceFederationPeerKey).toHaveBeenLastCalledWith({ fingerprint: "00001111222233334444555566667777" }, { linkId: "l1" });

    // As read aloud: in groups, in capitals.
    fireEvent.change(field, { target: { value: "9999 8888 7777 6666 5555 4444 3333 2222".toUpperCase() } });
    fireEvent.click(submit);
    await waitFor(() =>
      expect(toasts).toEqual([
        ["success", "The key of Gonette is replaced: 9999 8888 7777 6666 5555 4444 3333 2222. Every key they had before is refused from now on."],
      ]),
    );
    expect(ops.replaceFederationPeerKey).toHaveBeenLastCalledWith({ fingerprint: NEW_KEY }, { linkId: "l1" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });
});
