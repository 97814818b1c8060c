import { afterEach, beforeAll, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "../../../lib/router";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { I18nProvider } from "@lingui/react";
import type { Messages } from "@lingui/core";
import { RefusedError, type MutuaClient } from "@mutua/client";
import { ErrorCode, SM, type AppConfig } from "@mutua/domain";
import { AppEnvContext } from "../../../lib/context";
import { i18n } from "../../../lib/i18n";
import catalog from "../../../locales/en-US.json";
import type { AssociationSettings } from "./form";
import { SettingsScreen } from "./SettingsScreen";

const toasts = vi.hoisted(() => [] as unknown[]);
vi.mock("../../../lib/toast", () => ({
  toast: {
    error: (m: unknown) => toasts.push(["error", m]),
    success: (m: unknown) => toasts.push(["success", m]),
  },
}));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en-US", messages: (catalog as { messages: Messages }).messages });
  // jsdom has <dialog> without its methods (see ui/Dialog.test.tsx).
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute("open", "");
    (this.querySelector<HTMLElement>("[autofocus]") ?? this).focus();
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute("open");
  };
});
beforeEach(() => {
  toasts.length = 0;
});
afterEach(cleanup);

const config = { locales: { availableLanguages: {} } } as unknown as AppConfig;

const stored: AssociationSettings = {
  identity: {
    name: "Le Florain",
    theme: { primaryColor: null, topBarColor: null, topBarTextColor: null },
    logoUrl: null,
    helpUrl: null,
    cguUrl: null,
    mapUrl: null,
    allowSignup: true,
    allowResetPassword: true,
  },
  money: {
    currencyName: "Florain",
    currencySymbol: "FLO",
    backends: [{ id: "ledger:flo", kind: "ledger", floor: "-100.00", ceiling: null, topUpMin: null, topUpMax: null }],
    topUps: false,
    reconversions: false,
    bank: { iban: "", bic: "", holder: "" },
  },
  updatedAt: "v1",
};

type Op = "getAssociationSettings" | "saveAssociationSettings" | "getFloorImpact" | "uploadAssociationLogo" | "removeAssociationLogo";

/** A client whose `send` (what @mutua/client's `admin.call` sends through) hands each operation's arguments to the test's mock. */
function renderScreen(ops: Partial<Record<Op, Mock>>) {
  const client = {
    send: (name: Op, _route: unknown, a: { body?: unknown; query?: unknown } = {}) => {
      const op = ops[name];
      return op ? op(a.body ?? a.query) : Promise.reject(new Error(`unexpected call of ${name}`));
    },
  } as unknown as MutuaClient;
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AppEnvContext.Provider value={{ config, client }}>
      <QueryClientProvider client={qc}>
        <I18nProvider i18n={i18n}>
          <MemoryRouter>
            <SettingsScreen />
          </MemoryRouter>
        </I18nProvider>
      </QueryClientProvider>
    </AppEnvContext.Provider>,
  );
}

const saveButton = () => screen.getByRole("button", { name: "Save the settings" });
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe("the association's settings", () => {
  it("shows the identity, the money and a preview in the pending colours and symbol; Save waits for a change", async () => {
    renderScreen({ getAssociationSettings: vi.fn().mockResolvedValue(stored) });
    // The way to the import, for an association moving in.
    expect((await screen.findByRole("link", { name: "Import members" })).getAttribute("href")).toBe("/admin/import");
    expect(await screen.findByRole("heading", { level: 2, name: "Identity" })).toBeTruthy();
    expect(screen.getAllByRole("region").map((r) => r.querySelector("h2")?.textContent)).toEqual(["Identity", "Money", "Preview"]);
    expect(screen.getByRole("group", { name: "Ledger wallets (signed on members' devices)" })).toBeTruthy();
    expect(saveButton().getAttribute("aria-disabled")).toBe("true");

    const preview = screen.getByRole("region", { name: "Preview" });
    within(preview).getByText("123.45 FLO");
    type("Currency symbol", "FLR");
    within(preview).getByText("123.45 FLR");
    fireEvent.input(screen.getByLabelText("Main colour"), { target: { value: "#8a2be2" } });
    const box = preview.querySelector<HTMLElement>(".settings-preview")!;
    expect(box.style.getPropertyValue("--primary-color")).toBe("#8a2be2");
    // The page's own colours are not touched.
    expect(document.documentElement.style.getPropertyValue("--primary-color")).toBe("");
    expect(saveButton().getAttribute("aria-disabled")).toBe("false");

    // Back to the default: the preview sets nothing, the app's own colour applies.
    fireEvent.click(within(screen.getByLabelText("Main colour").closest<HTMLElement>(".settings-colour")!).getByRole("button", { name: "Default" }));
    expect(box.style.getPropertyValue("--primary-color")).toBe("");
    expect(document.activeElement).toBe(screen.getByLabelText("Main colour"));
    // Nothing left to reset: the button is gone, the colour says it is the default.
    expect(screen.queryAllByRole("button", { name: "Default" })).toHaveLength(0);
    expect(screen.getByLabelText("Main colour").getAttribute("aria-describedby")).toBe("settings-identity-theme-primaryColor-value");
    expect(document.getElementById("settings-identity-theme-primaryColor-value")!.textContent).toBe("Default");
  });

  it("asks before raising a floor, saying how many members are below it, then saves based on the version read", async () => {
    const saved = { ...stored, money: { ...stored.money, backends: [{ ...stored.money.backends[0]!, floor: "-50.00" }] }, updatedAt: "v2" };
    const ops = {
      getAssociationSettings: vi.fn().mockResolvedValue(stored),
      getFloorImpact: vi.fn().mockResolvedValue({ below: 3 }),
      saveAssociationSettings: vi.fn().mockResolvedValue(saved),
    };
    renderScreen(ops);
    await screen.findByLabelText("Members may owe up to");
    expect((screen.getByLabelText("Members may owe up to") as HTMLInputElement).value).toBe("100.00");
    type("Members may owe up to", "−50,00");
    saveButton().focus();
    fireEvent.click(saveButton());
    const dialog = await screen.findByRole("dialog", { name: "Lower how much members may owe?" });
    expect(ops.getFloorImpact).toHaveBeenCalledWith({ backendId: "ledger:flo", floor: "-50.00" });
    within(dialog).getByText(
      "3 members are below the new floor of \u221250.00 FLO. They keep their balance, and cannot pay from their mutual credit until they are back above it.",
    );
    expect(ops.saveAssociationSettings).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(toasts).toEqual([["success", "The settings are saved"]]));
    expect(ops.saveAssociationSettings.mock.calls[0]![0]).toMatchObject({ basedOn: "v1", money: { backends: [{ id: "ledger:flo", floor: "-50.00" }] } });
    expect(screen.queryByRole("dialog")).toBeNull();
    // The form is the saved settings, nothing left to save, and the hand is still on Save.
    expect((screen.getByLabelText("Members may owe up to") as HTMLInputElement).value).toBe("50.00");
    expect(saveButton().getAttribute("aria-disabled")).toBe("true");
    expect(document.activeElement).toBe(saveButton());
  });

  it("says when nobody is below the new floor, and saves nothing when the owner cancels", async () => {
    const ops = {
      getAssociationSettings: vi.fn().mockResolvedValue(stored),
      getFloorImpact: vi.fn().mockResolvedValue({ below: 0 }),
      saveAssociationSettings: vi.fn(),
    };
    renderScreen(ops);
    await screen.findByLabelText("Members may owe up to");
    type("Members may owe up to", "0");
    fireEvent.click(saveButton());
    const dialog = await screen.findByRole("dialog");
    within(dialog).getByText("No member is below the new floor of 0.00 FLO: no balance is affected.");
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(ops.saveAssociationSettings).not.toHaveBeenCalled();
  });

  it("shows the server's refusals under their fields and puts the hand on the first", async () => {
    const refusal = new RefusedError(400, {
      code: ErrorCode.validation,
      message: "invalid",
      fields: { "money.bank.iban": { msgid: SM.ibanInvalid }, "identity.helpUrl": { msgid: SM.linkInvalid } },
    });
    const ops = { getAssociationSettings: vi.fn().mockResolvedValue(stored), saveAssociationSettings: vi.fn().mockRejectedValue(refusal) };
    renderScreen(ops);
    await screen.findByLabelText("IBAN");
    type("IBAN", "FR00 1234");
    type("Help", "florain.fr");
    fireEvent.click(saveButton());
    await screen.findByText(SM.ibanInvalid);
    screen.getByText(SM.linkInvalid);
    const help = screen.getByLabelText("Help");
    expect(help.getAttribute("aria-invalid")).toBe("true");
    expect(help.getAttribute("aria-describedby")).toContain(`${help.id}-error`);
    expect(document.activeElement).toBe(help);
    expect(toasts).toEqual([["error", "Some settings need correcting: see the messages under them."]]);
    // Typing again takes the field's error away.
    type("Help", "https://florain.fr");
    expect(screen.queryByText(SM.linkInvalid)).toBeNull();
  });

  it("an amount that is not one is said under its field before anything is sent", async () => {
    const ops = { getAssociationSettings: vi.fn().mockResolvedValue(stored), saveAssociationSettings: vi.fn() };
    renderScreen(ops);
    await screen.findByLabelText("Top-up minimum");
    type("Top-up minimum", "12,345");
    fireEvent.click(saveButton());
    await screen.findByText("Type an amount with at most 2 decimals, such as 50 or 12.50.");
    expect(document.activeElement).toBe(screen.getByLabelText("Top-up minimum"));
    expect(ops.saveAssociationSettings).not.toHaveBeenCalled();
  });

  it("someone else saved meanwhile: says so and shows their settings again", async () => {
    const theirs = { ...stored, identity: { ...stored.identity, name: "Florain (new)" }, updatedAt: "v2" };
    const ops = {
      getAssociationSettings: vi.fn().mockResolvedValueOnce(stored).mockResolvedValueOnce(theirs),
      saveAssociationSettings: vi.fn().mockRejectedValue(new RefusedError(409, { code: ErrorCode.stateConflict, message: SM.settingsChangedMeanwhile })),
    };
    renderScreen(ops);
    await screen.findByLabelText("Association name");
    type("Association name", "Mine");
    fireEvent.click(saveButton());
    await waitFor(() => expect((screen.getByLabelText("Association name") as HTMLInputElement).value).toBe("Florain (new)"));
    expect(toasts).toEqual([["error", { id: SM.settingsChangedMeanwhile }]]);
    expect(ops.getAssociationSettings).toHaveBeenCalledTimes(2);
    expect(saveButton().getAttribute("aria-disabled")).toBe("true");
  });

  it("uploads a logo at once, as base64, and keeps the edits of the form", async () => {
    const withLogo = { ...stored, identity: { ...stored.identity, logoUrl: "/uploads/logo-1.svg" }, updatedAt: "v2" };
    const ops = {
      getAssociationSettings: vi.fn().mockResolvedValue(stored),
      uploadAssociationLogo: vi.fn().mockResolvedValue(withLogo),
      saveAssociationSettings: vi.fn().mockResolvedValue(withLogo),
    };
    renderScreen(ops);
    await screen.findByLabelText("Association name");
    type("Association name", "Florain");
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>';
    const file = new File([svg], "logo.svg", { type: "image/svg+xml" });
    // jsdom's File has no arrayBuffer(): the browser's does.
    file.arrayBuffer ??= () => Promise.resolve(new TextEncoder().encode(svg).buffer);
    await act(async () => {
      fireEvent.change(screen.getByLabelText("Upload a logo"), { target: { files: [file] } });
    });
    await waitFor(() => expect(toasts).toEqual([["success", "The logo is saved"]]));
    expect(ops.uploadAssociationLogo).toHaveBeenCalledWith({ type: "image/svg+xml", data: btoa(svg) });
    expect(screen.getByRole("img", { name: "Current logo" }).getAttribute("src")).toBe("/uploads/logo-1.svg");
    expect((screen.getByLabelText("Association name") as HTMLInputElement).value).toBe("Florain");
    // The save names the version the upload answered.
    fireEvent.click(saveButton());
    await waitFor(() => expect(ops.saveAssociationSettings).toHaveBeenCalled());
    expect(ops.saveAssociationSettings.mock.calls[0]![0]).toMatchObject({ basedOn: "v2", identity: { name: "Florain" } });
  });

  it("removes the logo at once; the hand goes back to the upload", async () => {
    const withLogo = { ...stored, identity: { ...stored.identity, logoUrl: "/association/logo?v=1" } };
    const ops = {
      getAssociationSettings: vi.fn().mockResolvedValue(withLogo),
      removeAssociationLogo: vi.fn().mockResolvedValue({ ...stored, updatedAt: "v2" }),
    };
    renderScreen(ops);
    const remove = await screen.findByRole("button", { name: "Remove the logo" });
    remove.focus();
    fireEvent.click(remove);
    await waitFor(() => expect(toasts).toEqual([["success", "The logo is removed"]]));
    expect(screen.queryByRole("img", { name: "Current logo" })).toBeNull();
    screen.getByText("No logo uploaded: the app shows its own.");
    expect(screen.queryByRole("button", { name: "Remove the logo" })).toBeNull();
    expect(document.activeElement).toBe(screen.getByLabelText("Upload a logo"));
  });
});
