import { beforeAll, describe, expect, it } from "vitest";
import type { Messages } from "@lingui/core";
import type { MemberFile } from "@mutua/domain";
import { i18n } from "../../../lib/i18n";
import catalog from "../../../locales/en-US.json";
import { canResetPins, counterpartyLabel, rightLabels, sessionMethodLabel, walletKindLabel, walletLabel, whichWallet } from "./labels";

type Wallet = MemberFile["wallets"][number];

const wallet = (over: Partial<Wallet>): Wallet => ({
  memberId: 1,
  name: "Alice Martin",
  email: "alice@example.com",
  walletId: "custodial:demo-lokal:1",
  backendId: "custodial:demo-lokal",
  backend: "custodial",
  currencyName: "Demo Lokal",
  currency: "DL",
  status: "active",
  bal: "12.50",
  cmFloor: null,
  cmCeiling: null,
  topupAllowed: true,
  frozenReason: null,
  ...over,
});

const custodial = wallet({});
const ledger = wallet({ walletId: "ledger:demo-lokal:0xabc", backendId: "ledger:demo-lokal", backend: "ledger", cmFloor: "-100.00", cmCeiling: "1000.00" });

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en-US", messages: (catalog as { messages: Messages }).messages });
});

describe("the members' pages' labels", () => {
  it("names the other side of a movement: a member by name, the association's own wallets as the association", () => {
    expect(counterpartyLabel(i18n, { name: "Bob Dupont", role: "member" })).toBe("Bob Dupont");
    expect(counterpartyLabel(i18n, { name: null, role: "issuance" })).toBe("The association");
    expect(counterpartyLabel(i18n, { name: null, role: "safe" })).toBe("The association");
  });

  it("says where a wallet's key is and how a session was opened", () => {
    expect(walletKindLabel(i18n, "custodial")).toBe("Held by the association");
    expect(walletKindLabel(i18n, "ledger")).toBe("On the member's device");
    expect(["password", "passkey", "device", "other"].map((k) => sessionMethodLabel(i18n, k as "password"))).toEqual([
      "Password",
      "Passkey",
      "Device",
      "Other",
    ]);
  });

  it("lists the rights held, in a fixed order, and none for a plain member", () => {
    expect(rightLabels(i18n, { accounts: false, credits: false, board: false, owner: false })).toEqual([]);
    expect(rightLabels(i18n, { accounts: true, credits: true, board: true, owner: false })).toEqual(["Account validation", "Credit validation", "Board"]);
    expect(rightLabels(i18n, { accounts: false, credits: false, board: true, owner: false })).toEqual(["Board"]);
    // Both validation rights read the figures too, the board's right set or not.
    expect(rightLabels(i18n, { accounts: true, credits: true, board: false, owner: true })).toEqual([
      "Account validation",
      "Credit validation",
      "Board",
      "Owner",
    ]);
  });

  it("offers to reset PIN attempts only once a PIN has a wrong attempt counted", () => {
    expect(canResetPins([])).toBe(false);
    expect(canResetPins([{ walletId: "w", failures: 0, attemptsLeft: 5, lastUsedAt: null }])).toBe(false);
    expect(
      canResetPins([
        { walletId: "w", failures: 0, attemptsLeft: 5, lastUsedAt: null },
        { walletId: "w", failures: 2, attemptsLeft: 3, lastUsedAt: null },
      ]),
    ).toBe(true);
  });

  it("names which wallet something is of only when the member has several", () => {
    expect(whichWallet(i18n, [custodial], custodial.walletId)).toBeNull();
    expect(whichWallet(i18n, [custodial, ledger], ledger.walletId)).toBe("Demo Lokal · signed wallet");
    expect(walletLabel(i18n, [custodial], custodial.walletId)).toBe("Demo Lokal");
    expect(walletLabel(i18n, [custodial], "gone")).toBe("gone");
  });
});
