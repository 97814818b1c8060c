import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { useState } from "react";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import type { Messages } from "@lingui/core";
import { M, type AppConfig } from "@mutua/domain";
import { encryptKeystore, newPrivateKey, type Keystore } from "@mutua/wallet";
import { AppEnvContext } from "../../../lib/context";
import { i18n } from "../../../lib/i18n";
import catalog from "../../../locales/en-US.json";
import { fakeApi, fakePinServer, json } from "./fake-api.testing";
import { savePin } from "./pins";
import { retainedKeys } from "./retention";
import { OperationCanceled, UnlockProvider, useUnlock } from "./UnlockProvider";

const toasts = vi.hoisted(() => [] as unknown[]);
vi.mock("../../../lib/toast", () => ({
  toast: { error: (m: unknown) => toasts.push(["error", m]), warning: (m: unknown) => toasts.push(["warning", m]) },
}));

const WALLET = "ledger:0x00000000000000000000000000000000000000bb";
let keystore: Keystore;

beforeAll(async () => {
  keystore = await encryptKeystore(newPrivateKey(), "Wallet-Pass-9", { n: 1024 });
  i18n.loadAndActivate({ locale: "en-US", messages: (catalog as { messages: Messages }).messages });
  // jsdom has <dialog> without its methods: open and close it as Chromium does (see ui/Dialog.test.tsx),
  // minus the top layer. Opening runs the dialog focusing steps: the element with the autofocus
  // attribute, else the first focusable one. React's autoFocus prop sets no attribute and its focus()
  // comes before the dialog opens, which Chromium ignores: without the attribute the header's Close
  // button had the focus, in Chromium as here.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute("open", "");
    (
      this.querySelector<HTMLElement>("[autofocus]") ??
      this.querySelector<HTMLElement>("button:not([disabled]), input:not([disabled]), [tabindex]") ??
      this
    ).focus();
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute("open");
  };
});

beforeEach(() => {
  localStorage.clear();
  retainedKeys.clear();
  toasts.length = 0;
});
afterEach(cleanup);

/** A screen that unlocks the wallet on a button, as the payment's Confirm does. */
function Pay() {
  const { unlockWallet } = useUnlock();
  const [outcome, setOutcome] = useState("");
  return (
    <>
      <button
        type="button"
        onClick={() =>
          unlockWallet(WALLET).then(
            (k) => setOutcome(`unlocked ${k.length}`),
            (e: unknown) => setOutcome(e instanceof OperationCanceled ? "canceled" : String(e)),
          )
        }
      >
        Pay
      </button>
      <output>{outcome}</output>
    </>
  );
}

async function renderWithPin() {
  const api = fakeApi();
  api.on("GET", `/api/accounts/${encodeURIComponent(WALLET)}/keystore`, json(200, keystore));
  fakePinServer(api);
  await savePin(api.client, WALLET, "Wallet-Pass-9", "1234");
  const config = { localAuthPolicy: ["Pin", {}] } as unknown as AppConfig;
  render(
    <AppEnvContext.Provider value={{ config, client: api.client }}>
      <I18nProvider i18n={i18n}>
        <UnlockProvider>
          <Pay />
        </UnlockProvider>
      </I18nProvider>
    </AppEnvContext.Provider>,
  );
  return api;
}

/** As a member's click does, the button takes the focus first (the dialog gives it back when it closes). */
function press(name: string) {
  const button = screen.getByRole("button", { name });
  button.focus();
  fireEvent.click(button);
}

const typePin = (pin: string) => act(async () => void fireEvent.change(screen.getByLabelText("PIN code"), { target: { value: pin } }));

describe("the Authentication dialog", () => {
  it("asks the PIN in a focused field; a wrong PIN shows the error and the attempts left with the focus kept in the PIN field", async () => {
    await renderWithPin();
    press("Pay");
    await screen.findByRole("dialog", { name: "Authentication" });
    const asked = screen.getByLabelText("PIN code");
    expect(document.activeElement).toBe(asked);
    // A phone closes its keyboard when the field loses the focus: it must not, even for a moment.
    const blurs: EventTarget[] = [];
    asked.addEventListener("blur", (e) => blurs.push(e.target!));
    expect(screen.queryByRole("alert")).toBeNull();

    await typePin("9999");
    // The PIN's key derivation runs for real: on a loaded machine it takes longer than findBy's 1 s.
    const alert = await screen.findByRole("alert", {}, { timeout: 10_000 });
    expect(alert.textContent).toBe("Failed authentication. Please try again. 4 attempts left before this PIN is disabled.");
    const field = screen.getByLabelText("PIN code") as HTMLInputElement;
    expect(field.value).toBe("");
    expect(field.disabled).toBe(false);
    expect(field).toBe(asked);
    expect(document.activeElement).toBe(field);
    expect(blurs).toEqual([]);
    expect(screen.getByRole("dialog", { name: "Authentication" }).contains(field)).toBe(true);
    // Said once, in the dialog: no toast besides, to outlive the payment's success.
    expect(toasts).toEqual([]);

    await typePin("1234");
    expect((await screen.findByText(/^unlocked/, {}, { timeout: 10_000 })).textContent).toBe("unlocked 32");
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("offers the password instead, and closing the dialog cancels the operation", async () => {
    const api = await renderWithPin();
    press("Pay");
    await screen.findByRole("dialog", { name: "Authentication" });
    await act(async () => void fireEvent.click(screen.getByRole("button", { name: "Use my wallet password instead" })));
    const password = await screen.findByLabelText("Enter your wallet password");
    expect(document.activeElement).toBe(password);

    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(await screen.findByText("canceled")).toBeTruthy();
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(toasts).toEqual([["warning", { id: M.operationCanceled }]]);
    expect(api.requests.filter((r) => r.path.endsWith("/open"))).toHaveLength(0);
  });
});
