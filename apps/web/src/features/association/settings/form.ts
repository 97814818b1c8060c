import { SM, msg, parseApiAmount, type BodyOf, type Msg, type ResponseOf } from "@mutua/domain";

export type AssociationSettings = ResponseOf<"getAssociationSettings">;
export type SaveAssociationSettingsBody = NonNullable<BodyOf<"saveAssociationSettings">>;

/**
 * The settings screen's form, apart from how it is drawn: the texts as typed (amounts in the
 * member's language, a decimal comma in French), read from the settings and back into the body
 * the server takes. Pure, and tested on its own (form.test.ts).
 */

export type ThemeKey = "primaryColor" | "topBarColor" | "topBarTextColor";
export const THEME_KEYS: readonly ThemeKey[] = ["primaryColor", "topBarColor", "topBarTextColor"];

/** Each theme colour's CSS custom property (styles.css), as config.json `theme` sets it on the page. */
export const THEME_PROPERTY: Record<ThemeKey, string> = {
  primaryColor: "--primary-color",
  topBarColor: "--top-menu-background-color",
  topBarTextColor: "--top-menu-text-color",
};

export interface BackendForm {
  id: string;
  kind: "ledger" | "custodial";
  /** How much members may owe (the floor without its minus sign), ledger backends only. */
  owe: string;
  /** The ceiling; empty for none. */
  ceiling: string;
  topUpMin: string;
  topUpMax: string;
}

export interface SettingsForm {
  name: string;
  theme: Record<ThemeKey, string | null>;
  helpUrl: string;
  cguUrl: string;
  mapUrl: string;
  allowSignup: boolean;
  allowResetPassword: boolean;
  currencyName: string;
  currencySymbol: string;
  backends: BackendForm[];
  topUps: boolean;
  reconversions: boolean;
  iban: string;
  bic: string;
  holder: string;
}

/** The form's fields, named as the server names them in a refusal's `fields` ("money.backends.0.floor"). */
export type FieldErrors = Record<string, Msg>;

/** An API amount ("-100.00") as an amount field shows it in the member's language ("100,00"), its sign dropped. */
type AmountInput = (apiAmount: string) => string;

const strip = (apiAmount: string) => apiAmount.replace(/^-/, "");

/** The form as the settings read from the server fill it. */
export function formOf(s: AssociationSettings, amountInput: AmountInput): SettingsForm {
  const text = (a: string | null) => (a === null ? "" : amountInput(strip(a)));
  return {
    name: s.identity.name,
    theme: { ...s.identity.theme },
    helpUrl: s.identity.helpUrl ?? "",
    cguUrl: s.identity.cguUrl ?? "",
    mapUrl: s.identity.mapUrl ?? "",
    allowSignup: s.identity.allowSignup,
    allowResetPassword: s.identity.allowResetPassword,
    currencyName: s.money.currencyName,
    currencySymbol: s.money.currencySymbol,
    backends: s.money.backends.map((b) => ({
      id: b.id,
      kind: b.kind,
      owe: b.floor === null ? "" : text(b.floor),
      ceiling: text(b.ceiling),
      topUpMin: text(b.topUpMin),
      topUpMax: text(b.topUpMax),
    })),
    topUps: s.money.topUps,
    reconversions: s.money.reconversions,
    iban: s.money.bank.iban,
    bic: s.money.bank.bic,
    holder: s.money.bank.holder,
  };
}

/** Said under an amount that is not one. */
export const NOT_AN_AMOUNT = msg("Type an amount with at most 2 decimals, such as 50 or 12.50.");

/** The minus signs a phone keyboard or a copied text may put before an amount: hyphen, minus, en dash. */
const MINUS = /^[-\u2212\u2013]/;

/**
 * An amount as typed ("50", "12,5", "1 000,00") as the API's 2-decimal string ("12.50"), or null
 * when it is not one. A leading minus is dropped where `signless`: "−50,00" in the field of how
 * much members may owe is the same floor as "50".
 */
export function parseTypedAmount(raw: string, opts: { signless?: boolean } = {}): string | null {
  let text = raw.trim().replace(/[\s\u00a0\u202f']/g, "");
  if (opts.signless) text = text.replace(MINUS, "");
  const m = /^(\d*)(?:[.,](\d{0,2}))?$/.exec(text);
  if (!m || (m[1] === "" && (m[2] ?? "") === "")) return null;
  const whole = (m[1] || "0").replace(/^0+(?=\d)/, "");
  if (whole.length > 16) return null;
  return `${whole}.${(m[2] ?? "").padEnd(2, "0")}`;
}

const isZero = (apiAmount: string) => parseApiAmount(apiAmount) === 0n;

export type BodyResult = { ok: true; body: SaveAssociationSettingsBody } | { ok: false; errors: FieldErrors };

/**
 * The body of a save: every setting at once, from the version read (`basedOn`). What the form can
 * tell is wrong before asking (an amount that is not one, a top-up bound of 0) comes back as field
 * errors, keyed as the server's; the rest (an IBAN's check digits, a link) the server says.
 */
export function bodyOf(form: SettingsForm, basedOn: string): BodyResult {
  const errors: FieldErrors = {};
  const amount = (key: string, raw: string, opts: { optional?: boolean; signless?: boolean; positive?: boolean } = {}): string | null => {
    if (opts.optional && raw.trim() === "") return null;
    const a = parseTypedAmount(raw, opts);
    if (a === null) {
      errors[key] = NOT_AN_AMOUNT;
      return null;
    }
    if (opts.positive && isZero(a)) errors[key] = msg(SM.topUpMinAboveZero);
    return a;
  };
  const link = (raw: string) => (raw.trim() === "" ? null : raw.trim());
  const backends = form.backends.map((b, i) => {
    const at = `money.backends.${i}`;
    const ledger = b.kind === "ledger";
    const owe = ledger ? amount(`${at}.floor`, b.owe, { signless: true }) : null;
    return {
      id: b.id,
      floor: owe === null ? null : isZero(owe) ? "0.00" : `-${owe}`,
      ceiling: ledger ? amount(`${at}.ceiling`, b.ceiling, { optional: true }) : null,
      topUpMin: amount(`${at}.topUpMin`, b.topUpMin, { optional: true, positive: true }),
      topUpMax: amount(`${at}.topUpMax`, b.topUpMax, { optional: true, positive: true }),
    };
  });
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    body: {
      identity: {
        name: form.name.trim(),
        theme: { ...form.theme },
        helpUrl: link(form.helpUrl),
        cguUrl: link(form.cguUrl),
        mapUrl: link(form.mapUrl),
        allowSignup: form.allowSignup,
        allowResetPassword: form.allowResetPassword,
      },
      money: {
        currencyName: form.currencyName.trim(),
        currencySymbol: form.currencySymbol.trim(),
        backends,
        topUps: form.topUps,
        reconversions: form.reconversions,
        bank: { iban: form.iban.trim(), bic: form.bic.trim(), holder: form.holder.trim() },
      },
      basedOn,
    },
  };
}

/** The settings as a save would send them unchanged: what a form's body is compared with. */
export function bodyOfSettings(s: AssociationSettings): SaveAssociationSettingsBody {
  const { identity, money, updatedAt } = s;
  return {
    identity: {
      name: identity.name,
      theme: { ...identity.theme },
      helpUrl: identity.helpUrl,
      cguUrl: identity.cguUrl,
      mapUrl: identity.mapUrl,
      allowSignup: identity.allowSignup,
      allowResetPassword: identity.allowResetPassword,
    },
    money: {
      currencyName: money.currencyName,
      currencySymbol: money.currencySymbol,
      backends: money.backends.map(({ id, floor, ceiling, topUpMin, topUpMax }) => ({ id, floor, ceiling, topUpMin, topUpMax })),
      topUps: money.topUps,
      reconversions: money.reconversions,
      bank: { ...money.bank },
    },
    basedOn: updatedAt,
  };
}

/** Whether the form says anything else than the settings read: a text typed again as it was ("100" for "100,00") is no change. */
export function formChanged(form: SettingsForm, s: AssociationSettings, amountInput: AmountInput): boolean {
  const body = bodyOf(form, s.updatedAt);
  if (!body.ok) return JSON.stringify(form) !== JSON.stringify(formOf(s, amountInput));
  return JSON.stringify(body.body) !== JSON.stringify(bodyOfSettings(s));
}

/** A ledger backend's floor that a save would raise (members may owe less): the server is asked how many are below it first. */
export interface RaisedFloor {
  backendId: string;
  from: string;
  to: string;
}

export function raisedFloors(s: AssociationSettings, body: SaveAssociationSettingsBody): RaisedFloor[] {
  const out: RaisedFloor[] = [];
  for (const b of body.money.backends) {
    const before = s.money.backends.find((o) => o.id === b.id);
    if (!before || before.kind !== "ledger" || before.floor === null || b.floor === null) continue;
    const from = parseApiAmount(before.floor);
    const to = parseApiAmount(b.floor);
    if (from !== null && to !== null && to > from) out.push({ backendId: b.id, from: before.floor, to: b.floor });
  }
  return out;
}

/**
 * The pending colours as CSS custom properties, set on the preview only (never on the page): a
 * colour left to the app's default sets nothing, and the preview's stylesheet gives the default.
 */
export function previewStyle(theme: SettingsForm["theme"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of THEME_KEYS) {
    const v = theme[k];
    if (v !== null) out[THEME_PROPERTY[k]] = v;
  }
  return out;
}

/** The server's field errors that the form shows under a field, and the others (said in a toast). */
export function splitFieldErrors(fields: FieldErrors, shown: (key: string) => boolean): { shown: FieldErrors; others: Msg[] } {
  const out: FieldErrors = {};
  const others: Msg[] = [];
  for (const [k, m] of Object.entries(fields)) {
    if (shown(k)) out[k] = m;
    else others.push(m);
  }
  return { shown: out, others };
}
