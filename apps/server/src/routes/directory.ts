import type { FastifyInstance, FastifyRequest } from "fastify";
import { directoryConfig, type AppConfig } from "@mutua/domain";
import type { AppDeps } from "../deps";
import { operation } from "../http/contract";
import { notFound } from "../services/platform/errors";
import {
  businessPayee,
  businessPhoto,
  decideBusiness,
  listBusinessRequests,
  myBusiness,
  publicBusiness,
  removeMyBusiness,
  saveBusinessPhoto,
  saveMyBusiness,
  searchDirectory,
} from "../services/shops/businesses";
import { directorySettings, listCategories, saveDirectorySettings } from "../services/shops/categories";
import { directoryCsv, directoryGeoJson } from "../services/shops/directory-export";
import { businessFigures } from "../services/board/business-figures";

const PHOTO_CACHE = "public, max-age=31536000, immutable";

/**
 * The directory of businesses and its map: public reading (the map, a business's page, the
 * exports for the association's own site), a member's own profile, the account administrators'
 * approval, the owners' settings and the board's figure.
 */
export function directoryRoutes(app: FastifyInstance, deps: AppDeps, config: () => AppConfig): void {
  const { db, settings } = deps;
  const origin = (req: FastifyRequest) => (settings.publicUrlConfigured ? settings.publicUrl : `${req.protocol}://${req.headers.host ?? "localhost"}`);

  operation(app, deps, "getDirectory", async ({ query }) => {
    const categories = await listCategories(db);
    const { timeZone } = directoryConfig(config());
    return { categories, businesses: await searchDirectory(db, query, categories, timeZone), timeZone };
  });
  operation(app, deps, "getBusiness", async ({ params }) => publicBusiness(db, params.businessId));
  operation(app, deps, "getBusinessPhoto", async ({ req, reply, params, query }) => {
    const photo = await businessPhoto(db, params.businessId);
    if (!photo) throw notFound();
    const etag = `"${photo.version}"`;
    reply
      .header("Cache-Control", query.v === photo.version ? PHOTO_CACHE : "no-cache")
      .header("ETag", etag)
      .header("Content-Security-Policy", "default-src 'none'; sandbox")
      .header("Content-Disposition", "inline")
      .header("Cross-Origin-Resource-Policy", "cross-origin");
    if (req.headers["if-none-match"] === etag) {
      reply.code(304);
      return Buffer.alloc(0);
    }
    reply.type(photo.type);
    return photo.bytes;
  });
  // The association's own site reads these from its own pages: any origin may (nothing private is in them).
  operation(app, deps, "getDirectoryGeoJson", async ({ req, reply }) => {
    const body = await directoryGeoJson(db, await listCategories(db), origin(req));
    reply.type("application/geo+json; charset=utf-8").header("Access-Control-Allow-Origin", "*").header("Cache-Control", "no-cache");
    return body;
  });
  operation(app, deps, "getDirectoryCsv", async ({ req, reply }) => {
    const body = await directoryCsv(db, await listCategories(db), origin(req));
    reply
      .type("text/csv; charset=utf-8")
      .header("Access-Control-Allow-Origin", "*")
      .header("Cache-Control", "no-cache")
      .header("Content-Disposition", 'attachment; filename="directory.csv"');
    return body;
  });
  operation(app, deps, "getBusinessPayee", async ({ params }) => businessPayee(db, params.businessId));

  operation(app, deps, "getMyBusiness", async ({ memberId }) => myBusiness(db, memberId));
  operation(app, deps, "saveMyBusiness", async ({ memberId, body }) => saveMyBusiness(db, memberId, body));
  operation(app, deps, "uploadMyBusinessPhoto", async ({ memberId, body }) => saveBusinessPhoto(db, memberId, body.data));
  operation(app, deps, "removeMyBusiness", async ({ memberId }) => removeMyBusiness(db, memberId));

  operation(app, deps, "listBusinessRequests", async ({ query }) => listBusinessRequests(db, query.status));
  operation(app, deps, "approveBusiness", async ({ memberId, params }) => decideBusiness(db, memberId, params.businessId, "approved"));
  operation(app, deps, "discardBusiness", async ({ memberId, params }) => decideBusiness(db, memberId, params.businessId, "discarded"));

  operation(app, deps, "getDirectorySettings", async () => directorySettings(db, directoryConfig(config())));
  operation(app, deps, "saveDirectorySettings", async ({ memberId, body }) => saveDirectorySettings(db, memberId, body, directoryConfig(config())));

  operation(app, deps, "getBusinessFigures", async ({ query }) => businessFigures(db, query.since));
}
