import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fastifyStatic from "@fastify/static";
import { ErrorCode, M, resolveConfig, webManifest, type AppConfig } from "@mutua/domain";
import type { Settings } from "./settings";
import type { Queryable } from "./db/pool";
import type { Association } from "./services/association/association";
import type { LiveAssociation } from "./services/association/live";
import { logoUrl, readLogo } from "./services/association/logo";
import { setupPageHtml } from "./http/setup-page";

/** The association's config.json file (APP_CONFIG), read once at start: the defaults its settings override. */
export function readConfigFile(s: Settings): Record<string, unknown> {
  return s.appConfigFile ? JSON.parse(fs.readFileSync(s.appConfigFile, "utf8")) : {};
}

/**
 * The app's config.json: the file's keys, overridden by the association's settings (its owners'
 * keys, its top-up and reconversion switches), every missing key defaulted, lokapiHost pointing
 * here; before setup, the file's, saying setup is needed.
 */
export function appConfig(s: Settings, file: Record<string, unknown>, association: Association | null): AppConfig {
  const raw = association ? overridden(file, association) : file;
  // The app talks to this server, whatever host an imported Monujo config named: the configured
  // public URL, or empty, which the app reads as "the origin I was loaded from".
  return { ...resolveConfig(raw), lokapiHost: s.publicUrlConfigured ? s.publicUrl : "", ...(association ? {} : { setupRequired: true }) };
}

/** The file's keys with the owners' over them: their colours over the file's theme, their logo over its logos. */
function overridden(file: Record<string, unknown>, a: Association): Record<string, unknown> {
  const fileTheme = typeof file.theme === "object" && file.theme !== null ? file.theme : {};
  const theme = { ...fileTheme, ...(a.appSettings.theme as Record<string, unknown> | undefined) };
  const logo = a.logoVersion ? { logoUrl: logoUrl(a.logoVersion), loginLogoUrl: logoUrl(a.logoVersion) } : {};
  const object = (v: unknown) => (typeof v === "object" && v !== null ? v : {});
  // The owners' directory settings over the file's, key by key (the file may name the tiles, the owners the framing sites).
  const directory = { ...object(file.directory), ...object(a.appSettings.directory) };
  const directories = Object.keys(directory).length > 0 ? { directory } : {};
  // The app bears the association's name (the sign-in page, the title, the installed app's), as
  // the owners' settings preview it: the file's appName only names it before setup.
  return {
    ...file,
    ...a.appSettings,
    appName: a.name,
    theme,
    ...directories,
    ...logo,
    disableTopUp: !a.topUps,
    disableReconversion: !a.reconversions,
  };
}

/** The app's config.json as the association now is, made again only when its row changed. */
export function liveConfig(s: Settings, file: Record<string, unknown>, live: LiveAssociation): () => AppConfig {
  let made: { from: Association | null; config: AppConfig } | null = null;
  return () => {
    const now = live.current();
    if (!made || made.from !== now) made = { from: now, config: appConfig(s, file, now) };
    return made.config;
  };
}

const escapeHtml = (t: string) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Serves the built web app on the API's own port, with client-side routes falling back to index.html. */
export async function webRoutes(app: FastifyInstance, s: Settings, db: Queryable, config: () => AppConfig): Promise<void> {
  app.get("/config.json", { schema: { hide: true } }, async (_req, reply) => reply.header("Cache-Control", "no-cache").send(config()));
  app.get("/manifest.webmanifest", { schema: { hide: true } }, async (_req, reply) =>
    reply
      .header("Cache-Control", "no-cache")
      .type("application/manifest+json")
      .send(JSON.stringify(webManifest(config()))),
  );

  // The owners' logo: an image, and nothing but (an SVG opened by its address runs nothing either).
  app.get("/association/logo", { schema: { hide: true } }, async (_req, reply) => {
    const logo = await readLogo(db);
    if (!logo) return reply.status(404).type("text/plain").send("No logo");
    return reply
      .header("Cache-Control", "no-cache")
      .header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      .type(logo.type)
      .send(logo.bytes);
  });

  const index = path.join(s.webDir, "index.html");
  const hasWeb = fs.existsSync(index);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: s.webDir,
      // "/" is answered below like every route of the app: with the setup page until there is an association.
      index: false,
      // Source maps hold the full sources and build paths: never served, even if a build left some.
      allowedPath: (pathName) => !pathName.endsWith(".map"),
      setHeaders(res, file) {
        // Hashed assets never change; everything else is revalidated.
        res.header("Cache-Control", file.includes(`${path.sep}assets${path.sep}`) ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  }
  // The app's page, for "/" and every route of the app: the setup page until there is an association.
  const shell = async (req: FastifyRequest, reply: FastifyReply) => {
    if (config().setupRequired) return reply.header("Cache-Control", "no-store").type("text/html").send(setupPageHtml(req.headers["accept-language"]));
    if (!hasWeb) return reply.status(503).type("text/plain").send("The web app is not built: run `npm run build`.");
    // The title is the association's from the first paint (and for whatever reads the page without
    // running it, such as a link preview), not the build's placeholder.
    const html = (await fs.promises.readFile(index, "utf8")).replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(config().appName)}</title>`);
    return reply.header("Cache-Control", "no-cache").type("text/html").send(html);
  };
  app.get("/", { schema: { hide: true } }, shell);
  app.setNotFoundHandler(async (req, reply) => {
    const url = req.url.split("?")[0]!;
    if (req.method === "GET" && !url.startsWith("/api/") && !path.extname(url)) return shell(req, reply);
    return reply.status(404).send({ error: { code: ErrorCode.notFound, message: M.notFound, msgid: M.notFound } });
  });
}
