import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import fastifyStatic from "@fastify/static";
import { ErrorCode, M, resolveConfig, webManifest, type AppConfig } from "@mutua/domain";
import type { Settings } from "./settings";

/** The app's config.json: the association's file if any, every missing key defaulted, lokapiHost pointing here. */
export function appConfig(s: Settings): AppConfig {
  const raw = s.appConfigFile ? JSON.parse(fs.readFileSync(s.appConfigFile, "utf8")) : {};
  // The app talks to this server, whatever host an imported Monujo config named: the configured
  // public URL, or empty, which the app reads as "the origin I was loaded from".
  return { ...resolveConfig(raw), lokapiHost: s.publicUrlConfigured ? s.publicUrl : "" };
}

/** Serves the built web app on the API's own port, with client-side routes falling back to index.html. */
export async function webRoutes(app: FastifyInstance, s: Settings, config: AppConfig): Promise<void> {
  app.get("/config.json", { schema: { hide: true } }, async (_req, reply) => reply.header("Cache-Control", "no-cache").send(config));
  const manifest = webManifest(config);
  app.get("/manifest.webmanifest", { schema: { hide: true } }, async (_req, reply) =>
    reply.header("Cache-Control", "no-cache").type("application/manifest+json").send(JSON.stringify(manifest)),
  );

  const index = path.join(s.webDir, "index.html");
  const hasWeb = fs.existsSync(index);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: s.webDir,
      index: "index.html",
      // Source maps hold the full sources and build paths: never served, even if a build left some.
      allowedPath: (pathName) => !pathName.endsWith(".map"),
      setHeaders(res, file) {
        // Hashed assets never change; everything else is revalidated.
        res.header("Cache-Control", file.includes(`${path.sep}assets${path.sep}`) ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  }
  app.setNotFoundHandler(async (req, reply) => {
    const url = req.url.split("?")[0]!;
    if (req.method === "GET" && !url.startsWith("/api/") && !path.extname(url)) {
      if (!hasWeb) return reply.status(503).type("text/plain").send("The web app is not built: run `npm run build`.");
      return reply.header("Cache-Control", "no-cache").type("text/html").send(fs.createReadStream(index));
    }
    return reply.status(404).send({ error: { code: ErrorCode.notFound, message: M.notFound, msgid: M.notFound } });
  });
}
