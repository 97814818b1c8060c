import { z } from "zod";
import { NAME_MAX } from "../names";
import { M } from "../messages";
import { SM } from "../server-messages";
import { isPathOfThisServer } from "../paths";
import { BACKEND_KINDS, LOGO_MAX_BYTES, LOGO_TYPES } from "../vocabulary";
import { AmountString, SignedAmountString } from "../platform/schemas";

/** The association's contract: its settings, theme and logo as its owners change them. */

/** A colour of the association's theme, as `<input type="color">` gives it. */
export const HexColour = z.string().regex(/^#[0-9a-f]{6}$/i, M.invalidRequest);

/** A link the app opens: https (or http for a test server), or a path on this server. */
export const SettingsLink = z
  .string()
  .max(500, M.fieldTooLong)
  .refine((u) => /^[^\s"<>]+$/.test(u) && (/^https?:\/\/./.test(u) || isPathOfThisServer(u)), SM.linkInvalid)
  .nullable();

/** The association's theme: each key a colour of the app (lib/theme.ts sets them as CSS properties). */
export const ThemeColours = z.strictObject({ primaryColor: HexColour.nullable(), topBarColor: HexColour.nullable(), topBarTextColor: HexColour.nullable() });

/** One backend's money settings: the ledger's mutual credit bounds and both kinds' top-up bounds. */
export const BackendMoneySettings = z.strictObject({
  id: z.string().max(120),
  kind: z.enum(BACKEND_KINDS),
  /** Members' mutual credit floor (0 or below), ledger backends only. */
  floor: SignedAmountString.nullable(),
  /** Members' mutual credit ceiling, none when null; ledger backends only. */
  ceiling: AmountString.nullable(),
  topUpMin: AmountString.nullable(),
  topUpMax: AmountString.nullable(),
});

/** The association's settings, as its owners read and change them (stored in the database, read live by every instance). */
export const AssociationSettings = z.object({
  identity: z.object({
    name: z.string(),
    theme: ThemeColours,
    /** The uploaded logo's address, or null (the app's own). */
    logoUrl: z.string().nullable(),
    helpUrl: z.string().nullable(),
    cguUrl: z.string().nullable(),
    mapUrl: z.string().nullable(),
    allowSignup: z.boolean(),
    allowResetPassword: z.boolean(),
  }),
  money: z.object({
    currencyName: z.string(),
    currencySymbol: z.string(),
    backends: z.array(BackendMoneySettings),
    topUps: z.boolean(),
    reconversions: z.boolean(),
    bank: z.object({ iban: z.string(), bic: z.string(), holder: z.string() }),
  }),
  /** When they were last saved: a save names it, and is refused if someone saved since. */
  updatedAt: z.string(),
});

/** The settings an owner saves: all of them at once, from the version they read. */
export const SaveAssociationSettingsBody = z.strictObject({
  identity: z.strictObject({
    name: z.string().max(NAME_MAX + 64),
    theme: ThemeColours,
    helpUrl: SettingsLink,
    cguUrl: SettingsLink,
    mapUrl: SettingsLink,
    allowSignup: z.boolean(),
    allowResetPassword: z.boolean(),
  }),
  money: z.strictObject({
    currencyName: z.string().max(100),
    currencySymbol: z.string().max(32),
    backends: z.array(BackendMoneySettings.omit({ kind: true })).max(20),
    topUps: z.boolean(),
    reconversions: z.boolean(),
    bank: z.strictObject({ iban: z.string().max(64), bic: z.string().max(32), holder: z.string().max(NAME_MAX + 64) }),
  }),
  basedOn: z.string().max(64),
});

/** How many members a new floor of a ledger backend would leave below it (they keep their balance). */
export const FloorImpactQuery = z.object({ backendId: z.string().max(120), floor: SignedAmountString });

export const FloorImpact = z.object({ below: z.number().int() });

/** A logo, uploaded as base64 (PNG or SVG, at most LOGO_MAX_BYTES once decoded; an SVG is sanitised). */
export const LogoUploadBody = z.strictObject({
  type: z.enum(LOGO_TYPES),
  data: z.string().max(Math.ceil((LOGO_MAX_BYTES * 4) / 3) + 8, SM.logoInvalid),
});
