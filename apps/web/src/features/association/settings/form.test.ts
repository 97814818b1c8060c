import { describe, expect, it } from "vitest";
import { SM } from "@mutua/domain";
import {
  NOT_AN_AMOUNT,
  bodyOf,
  bodyOfSettings,
  formChanged,
  formOf,
  parseTypedAmount,
  previewStyle,
  raisedFloors,
  splitFieldErrors,
  type AssociationSettings,
} from "./form";
import { base64Of, logoType } from "./useSettingsPage";

const settings: AssociationSettings = {
  identity: {
    name: "Le Florain",
    theme: { primaryColor: null, topBarColor: "#ffffff", topBarTextColor: null },
    logoUrl: null,
    helpUrl: "https://florain.fr/aide",
    cguUrl: null,
    mapUrl: "/carto",
    allowSignup: true,
    allowResetPassword: false,
  },
  money: {
    currencyName: "Florain",
    currencySymbol: "FLO",
    backends: [
      { id: "ledger:flo", kind: "ledger", floor: "-100.00", ceiling: "1000.00", topUpMin: "5.00", topUpMax: null },
      { id: "custodial:flo", kind: "custodial", floor: null, ceiling: null, topUpMin: null, topUpMax: "500.00" },
    ],
    topUps: true,
    reconversions: false,
    bank: { iban: "FR7630006000011234567890189", bic: "AGRIFRPP", holder: "Le Florain" },
  },
  updatedAt: "2026-11-20T10:00:00.000Z",
};

/** As the French app writes amounts in a field (lib/format.ts amountInput). */
const french = (a: string) => a.replace(".", ",");

describe("the settings' form", () => {
  it("is filled from the settings: amounts in the member's language, a floor as how much members may owe, links empty for none", () => {
    const form = formOf(settings, french);
    expect(form.backends).toEqual([
      { id: "ledger:flo", kind: "ledger", owe: "100,00", ceiling: "1000,00", topUpMin: "5,00", topUpMax: "" },
      { id: "custodial:flo", kind: "custodial", owe: "", ceiling: "", topUpMin: "", topUpMax: "500,00" },
    ]);
    expect([form.helpUrl, form.cguUrl, form.mapUrl]).toEqual(["https://florain.fr/aide", "", "/carto"]);
    expect(form.theme).toEqual(settings.identity.theme);
  });

  it("sends back what it read, unchanged, based on the version read", () => {
    const r = bodyOf(formOf(settings, french), settings.updatedAt);
    expect(r).toEqual({ ok: true, body: bodyOfSettings(settings) });
    expect(formChanged(formOf(settings, french), settings, french)).toBe(false);
  });

  it("reads amounts as typed: a decimal comma, spaces, a minus before how much members may owe", () => {
    expect(["50", "50,5", "1 000,00", "−50,00", "-50", "\u2013 50", "0", ",5"].map((t) => parseTypedAmount(t, { signless: true }))).toEqual([
      "50.00",
      "50.50",
      "1000.00",
      "50.00",
      "50.00",
      "50.00",
      "0.00",
      "0.50",
    ]);
    // Elsewhere a minus is not an amount; nor are three decimals, letters, or nothing.
    expect(["-50", "1,234", "12abc", "", "1e3"].map((t) => parseTypedAmount(t))).toEqual([null, null, null, null, null]);
  });

  it("sends a floor as the negative of how much members may owe, and an empty ceiling or top-up bound as none", () => {
    const form = formOf(settings, french);
    form.backends[0] = { ...form.backends[0]!, owe: "−50", ceiling: " ", topUpMin: "" };
    form.backends[1] = { ...form.backends[1]!, topUpMin: "10,5" };
    const r = bodyOf(form, settings.updatedAt);
    if (!r.ok) throw new Error("refused");
    expect(r.body.money.backends).toEqual([
      { id: "ledger:flo", floor: "-50.00", ceiling: null, topUpMin: null, topUpMax: null },
      { id: "custodial:flo", floor: null, ceiling: null, topUpMin: "10.50", topUpMax: "500.00" },
    ]);
    // No credit at all: a floor of 0, not "-0.00".
    form.backends[0] = { ...form.backends[0]!, owe: "0" };
    const none = bodyOf(form, settings.updatedAt);
    expect(none.ok && none.body.money.backends[0]!.floor).toBe("0.00");
  });

  it("says which amounts are not ones, under the field the server would name", () => {
    const form = formOf(settings, french);
    form.backends[0] = { ...form.backends[0]!, owe: "beaucoup", topUpMax: "0" };
    form.backends[1] = { ...form.backends[1]!, topUpMin: "1,234" };
    expect(bodyOf(form, settings.updatedAt)).toEqual({
      ok: false,
      errors: {
        "money.backends.0.floor": NOT_AN_AMOUNT,
        "money.backends.0.topUpMax": { id: SM.topUpMinAboveZero },
        "money.backends.1.topUpMin": NOT_AN_AMOUNT,
      },
    });
    expect(formChanged(form, settings, french)).toBe(true);
  });

  it("trims the texts, sends an emptied link as none and a colour set back to the default as null", () => {
    const form = formOf(settings, french);
    form.name = "  Le Florain  ";
    form.helpUrl = "  ";
    form.cguUrl = " /cgu ";
    form.theme = { primaryColor: "#8a2be2", topBarColor: null, topBarTextColor: null };
    form.currencySymbol = " FLR ";
    const r = bodyOf(form, settings.updatedAt);
    if (!r.ok) throw new Error("refused");
    expect(r.body.identity).toMatchObject({
      name: "Le Florain",
      helpUrl: null,
      cguUrl: "/cgu",
      theme: { primaryColor: "#8a2be2", topBarColor: null, topBarTextColor: null },
    });
    expect(r.body.money.currencySymbol).toBe("FLR");
    expect(formChanged(form, settings, french)).toBe(true);
  });

  it("an amount typed again as it was is no change", () => {
    const form = formOf(settings, french);
    form.backends[0] = { ...form.backends[0]!, owe: "100", ceiling: "1000" };
    expect(formChanged(form, settings, french)).toBe(false);
  });
});

describe("a raised floor", () => {
  const withOwe = (owe: string) => {
    const form = formOf(settings, french);
    form.backends[0] = { ...form.backends[0]!, owe };
    const r = bodyOf(form, settings.updatedAt);
    if (!r.ok) throw new Error("refused");
    return raisedFloors(settings, r.body);
  };
  it("is one members may owe less under: -100.00 to -50.00 or to 0", () => {
    expect(withOwe("50")).toEqual([{ backendId: "ledger:flo", from: "-100.00", to: "-50.00" }]);
    expect(withOwe("0")).toEqual([{ backendId: "ledger:flo", from: "-100.00", to: "0.00" }]);
  });
  it("is not one left as it was or lowered (members may owe more), nor a custodial backend's", () => {
    expect(withOwe("100,00")).toEqual([]);
    expect(withOwe("300")).toEqual([]);
  });
});

describe("the preview's colours", () => {
  it("sets each pending colour as its CSS property, and none for a colour left to the default", () => {
    expect(previewStyle({ primaryColor: "#8a2be2", topBarColor: null, topBarTextColor: "#000000" })).toEqual({
      "--primary-color": "#8a2be2",
      "--top-menu-text-color": "#000000",
    });
  });
});

describe("the server's field errors", () => {
  it("go under the fields the form has; the others are said apart", () => {
    const fields = { "money.bank.iban": { id: SM.ibanInvalid }, "money.backends.7.floor": { id: SM.floorAboveZero } };
    expect(splitFieldErrors(fields, (k) => k.startsWith("money.bank"))).toEqual({
      shown: { "money.bank.iban": { id: SM.ibanInvalid } },
      others: [{ id: SM.floorAboveZero }],
    });
  });
});

describe("a logo file", () => {
  it("is a PNG or an SVG by its type, or by its name when the device gives none", () => {
    expect(logoType({ type: "image/png", name: "x" })).toBe("image/png");
    expect(logoType({ type: "image/svg+xml", name: "x" })).toBe("image/svg+xml");
    expect(logoType({ type: "", name: "logo.SVG" })).toBe("image/svg+xml");
    expect(logoType({ type: "image/jpeg", name: "logo.png" })).toBe(null);
  });
  it("is sent as base64, however large", () => {
    const bytes = new Uint8Array(200_000).map((_, i) => i % 251);
    expect(base64Of(bytes)).toBe(Buffer.from(bytes).toString("base64"));
  });
});
