import { describe, expect, it } from "vitest";
import type { MemberWallet } from "@mutua/domain";
import { narrowWallets } from "./wallet-search";

const wallet = (name: string, email: string): MemberWallet => ({
  memberId: 1,
  name,
  email,
  walletId: `custodial:demo:${name}`,
  backendId: "custodial:demo",
  backend: "custodial",
  currencyName: "Demo Lokal",
  currency: "DL",
  status: "active",
  bal: "0.00",
  cmFloor: null,
  cmCeiling: null,
  topupAllowed: true,
  frozenReason: null,
});

describe("narrowing the console's wallets as the search is typed", () => {
  const all = [wallet("Zoé Lefèvre", "zoe@example.com"), wallet("Bob Durand", "bob@example.com"), wallet("Carol Petit", "carol@mail.test")];

  it("keeps the members whose name or e-mail holds the text, accents and case ignored", () => {
    expect(narrowWallets(all, "ZOE").map((w) => w.name)).toEqual(["Zoé Lefèvre"]);
    expect(narrowWallets(all, "lefevre").map((w) => w.name)).toEqual(["Zoé Lefèvre"]);
    expect(narrowWallets(all, "example").map((w) => w.name)).toEqual(["Zoé Lefèvre", "Bob Durand"]);
    expect(narrowWallets(all, "bob  durand").map((w) => w.name)).toEqual(["Bob Durand"]);
    expect(narrowWallets(all, "nobody")).toEqual([]);
  });

  it("keeps every wallet for an empty text", () => {
    expect(narrowWallets(all, "  ")).toBe(all);
  });
});
