import { z } from "zod";
import { M } from "../messages";
import { NAME_MAX } from "../names";
import { Ok } from "../platform/schemas";
import { PhotoBytes, PhotoQuery, PhotoUploadBody } from "../members/schemas";
import { BUSINESS_STATUSES, TIME_OF_DAY } from "./hours";

/**
 * The association's directory of businesses and its map (docs/architecture.md "The directory"):
 * a member who runs a shop asks for a business profile, an account administrator approves it,
 * and only then is it public: on the map, in the list, in the GeoJSON and CSV the association's
 * own site reads. Ordinary members are never listed. The owners keep the categories and the
 * directory's settings (tiles, time zone, geocoder, the sites that may frame the map).
 */

export const BUSINESS_LIMITS = {
  name: NAME_MAX,
  description: 280,
  address: 200,
  phone: 40,
  website: 200,
  weekly: 28,
  exceptions: 60,
  categories: 40,
  categoryName: 60,
  embedOrigins: 20,
} as const;

const text = (max: number) => z.string().trim().max(max, { message: M.fieldTooLong });
const Time = z.string().regex(TIME_OF_DAY, M.invalidRequest);
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, M.invalidRequest);

export const BusinessId = z.string().regex(/^bz_[\w-]{10,40}$/, M.notFound);
export const BusinessParams = z.object({ businessId: BusinessId });

export const OpeningHoursSchema = z.object({
  weekly: z.array(z.object({ day: z.number().int().min(0).max(6), open: Time, close: Time })).max(BUSINESS_LIMITS.weekly),
  exceptions: z
    .array(z.object({ date: Day, closed: z.boolean(), open: Time.nullable().optional(), close: Time.nullable().optional() }))
    .max(BUSINESS_LIMITS.exceptions),
});

export const Location = z.object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) });

/** A category of the association's list, in both languages. */
export const BusinessCategory = z.object({ id: z.number().int(), en: z.string(), fr: z.string() });

/** What the public sees of a business: only what its member filled in, nothing of them as a member. */
export const BusinessCard = z.object({
  id: z.string(),
  name: z.string(),
  categoryId: z.number().int().nullable(),
  description: z.string(),
  address: z.string(),
  hours: OpeningHoursSchema,
  phone: z.string().nullable(),
  website: z.string().nullable(),
  photoUrl: z.string().nullable(),
  location: Location.nullable(),
  /** The backends it takes payments in, and whether it has a till (takes payment codes at the counter). */
  accepts: z.array(z.string()),
  till: z.boolean(),
});

export const DirectoryQuery = z.object({
  q: z.string().max(100).optional(),
  category: z.coerce.number().int().positive().optional(),
  /** Only those open at that instant (the app sends its own clock's "now"). */
  openAt: z.string().datetime({ offset: true }).optional(),
});

export const Directory = z.object({ categories: z.array(BusinessCategory), businesses: z.array(BusinessCard), timeZone: z.string() });

/** Whom a signed-in member pays at a business: its member and the wallet it takes payments into. */
export const BusinessPayee = z.object({ memberId: z.number().int(), walletId: z.string(), name: z.string() });

/** A member's own business profile, whatever its state. */
export const MyBusiness = BusinessCard.extend({ status: z.enum(BUSINESS_STATUSES) });

const Website = text(BUSINESS_LIMITS.website).refine((u) => u === "" || /^https?:\/\/[^\s"<>]+$/.test(u), { message: M.invalidRequest });

/** What a member asks for, or changes: the form of their profile. */
export const SaveBusinessBody = z.object({
  name: text(BUSINESS_LIMITS.name).min(1, { message: M.invalidRequest }),
  categoryId: z.number().int().positive().nullable(),
  description: text(BUSINESS_LIMITS.description),
  address: text(BUSINESS_LIMITS.address),
  hours: OpeningHoursSchema,
  phone: text(BUSINESS_LIMITS.phone),
  website: Website,
  location: Location.nullable(),
  accepts: z.array(z.string().max(120)).max(10),
  till: z.boolean(),
});

/** A business asked for, as an account administrator sees it: who asked, and what. */
export const BusinessRequest = MyBusiness.extend({ memberName: z.string(), memberEmail: z.string(), askedAt: z.string() });

export const BusinessRequestsQuery = z.object({ status: z.enum(BUSINESS_STATUSES).default("pending") });

/** The owners' settings of the directory: the categories, the tiles, the sites that may frame the map. */
export const DirectorySettings = z.object({
  categories: z.array(BusinessCategory),
  tileUrl: z.string().nullable(),
  tileAttribution: z.string().nullable(),
  geocoderUrl: z.string().nullable(),
  timeZone: z.string(),
  embedOrigins: z.array(z.string()),
});

const HttpUrl = z
  .string()
  .trim()
  .max(300, { message: M.fieldTooLong })
  .refine((u) => /^https?:\/\/\S+$/.test(u), { message: M.invalidRequest });

export const SaveDirectorySettingsBody = z.object({
  categories: z
    .array(
      z.object({
        id: z.number().int().positive().nullable(),
        en: text(BUSINESS_LIMITS.categoryName).min(1, { message: M.invalidRequest }),
        fr: text(BUSINESS_LIMITS.categoryName).min(1, { message: M.invalidRequest }),
      }),
    )
    .max(BUSINESS_LIMITS.categories),
  tileUrl: HttpUrl.refine((u) => u.includes("{z}") && u.includes("{x}") && u.includes("{y}"), { message: M.invalidRequest }).nullable(),
  tileAttribution: text(200).nullable(),
  geocoderUrl: HttpUrl.nullable(),
  timeZone: z
    .string()
    .max(64)
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, M.invalidRequest),
  embedOrigins: z
    .array(
      z
        .string()
        .trim()
        .max(200)
        .regex(/^https?:\/\/[^\s/]+$/, M.invalidRequest),
    )
    .max(BUSINESS_LIMITS.embedOrigins),
});

export const BusinessFiguresQuery = z.object({ since: z.string().datetime({ offset: true }).optional() });

/** The board's figure: businesses listed and active, and the share of payments that went to them. */
export const BusinessFigures = z.object({
  listed: z.number().int(),
  /** Listed businesses paid at least once since `since` (30 days by default). */
  active: z.number().int(),
  since: z.string(),
  payments: z.number().int(),
  toBusinesses: z.number().int(),
  /** Percent of the payments' count, one decimal; null without payments. */
  share: z.number().nullable(),
});

/** The directory's contract, keyed as its routes (api/directory-routes.ts). */
export const directorySchemas = {
  getDirectory: { query: DirectoryQuery, response: Directory },
  getBusiness: { params: BusinessParams, response: BusinessCard },
  getBusinessPhoto: { params: BusinessParams, query: PhotoQuery, response: PhotoBytes },
  /** A GeoJSON FeatureCollection of the listed businesses, their public fields as properties. */
  getDirectoryGeoJson: { response: z.string() },
  /** A CSV of the listed businesses' public fields. */
  getDirectoryCsv: { response: z.string() },
  getBusinessPayee: { params: BusinessParams, response: BusinessPayee },
  getMyBusiness: { response: MyBusiness.nullable() },
  saveMyBusiness: { body: SaveBusinessBody, response: MyBusiness },
  uploadMyBusinessPhoto: { body: PhotoUploadBody, response: MyBusiness },
  removeMyBusiness: { response: Ok },
  listBusinessRequests: { query: BusinessRequestsQuery, response: z.array(BusinessRequest) },
  approveBusiness: { params: BusinessParams, response: BusinessRequest },
  discardBusiness: { params: BusinessParams, response: BusinessRequest },
  getDirectorySettings: { response: DirectorySettings },
  saveDirectorySettings: { body: SaveDirectorySettingsBody, response: DirectorySettings },
  getBusinessFigures: { query: BusinessFiguresQuery, response: BusinessFigures },
};
