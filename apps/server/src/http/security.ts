import type { FastifyInstance, FastifyRequest } from "fastify";
import { directoryConfig, type AppConfig } from "@mutua/domain";
import type { Settings } from "../settings";
import { forbidden } from "../services/platform/errors";
import { sessionCredential } from "./auth";

const originOf = (url: string | undefined): string | null => {
  if (!url || !/^https?:\/\//.test(url)) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * The Content-Security-Policy of every answer: scripts only from this server (no inline script,
 * no eval; WebAssembly for the QR decoder), no framing by other sites, frames only of the
 * association's map. Inline styles stay allowed: React style attributes and the association's
 * `css` and `theme` from config.json are styles, not code.
 */
export function contentSecurityPolicy(s: Settings, config: AppConfig, opts: { embed?: boolean } = {}): string {
  const api = originOf(s.publicUrl);
  // The map page frames the configured mapUrl (a relative one is on this server).
  const map = config.mapUrl ? (originOf(config.mapUrl) ?? "'self'") : null;
  // The association's own map draws tiles from its tile server (any https one already may), and
  // asks its geocoding service, if it has one, where an address is.
  const directory = directoryConfig(config);
  const tiles = originOf(directory.tileUrl.replace(/[{}]/g, ""));
  const geocoder = originOf(directory.geocoderUrl);
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: https:${tiles?.startsWith("http:") ? ` ${tiles}` : ""}`,
    "font-src 'self' data:",
    `connect-src 'self'${api ? ` ${api}` : ""}${geocoder ? ` ${geocoder}` : ""}`,
    `frame-src ${map ?? "'none'"}`,
    "worker-src 'self' blob:",
    "media-src 'self' blob: mediastream:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    // Other sites may not frame the app (clickjacking); its own map page may frame this server's files,
    // and the sites the owners list may frame the embeddable map (`/carto?embed=1`) alone.
    `frame-ancestors 'self'${opts.embed ? directory.embedOrigins.map((o) => ` ${o}`).join("") : ""}`,
  ].join("; ");
}

/** Whether a request is for the embeddable map: `/carto?embed=1`, or a business's page of it. */
export function isEmbed(url: string): boolean {
  const [path, query = ""] = url.split("?", 2) as [string, string?];
  return /^\/carto(?:\/[^/]*)?\/?$/.test(path) && new URLSearchParams(query).get("embed") === "1";
}

/**
 * Whether a request comes from another site. Sec-Fetch-Site, which browsers set themselves, is
 * taken when present (a page with Referrer-Policy no-referrer sends "Origin: null" for its own
 * forms); older browsers are judged by Origin.
 */
function crossSite(req: FastifyRequest, s: Settings): boolean {
  const site = req.headers["sec-fetch-site"];
  if (site) return site !== "same-origin" && site !== "none";
  const origin = req.headers.origin;
  if (!origin) return false;
  if (origin === "null") return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return true;
  }
  const allowed = [originOf(s.publicUrl), ...s.passkeyOrigins].filter(Boolean);
  return host !== req.headers.host && !allowed.includes(origin);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Our API and the Lokavaluto face's two. */
const API_PREFIXES = ["/api/", "/lokavaluto_api/", "/cyclos/"];

export function securityHeaders(app: FastifyInstance, s: Settings, config: () => AppConfig): void {
  // Made again when the association's config changes (its map link is a frame source).
  let made: { from: AppConfig; csp: string; embed: string } | null = null;
  const policy = (embed: boolean) => {
    const now = config();
    if (made?.from !== now) made = { from: now, csp: contentSecurityPolicy(s, now), embed: contentSecurityPolicy(s, now, { embed: true }) };
    return embed ? made.embed : made.csp;
  };
  const https = s.publicUrl.startsWith("https:");
  app.addHook("onRequest", async (req, reply) => {
    const embed = req.method === "GET" && isEmbed(req.url);
    reply.header("Content-Security-Policy", policy(embed));
    reply.header("X-Content-Type-Options", "nosniff");
    // X-Frame-Options knows no list of sites: the embeddable map leaves it to frame-ancestors.
    if (!embed) reply.header("X-Frame-Options", "SAMEORIGIN");
    reply.header("Referrer-Policy", "same-origin");
    // The map's "near me" asks the browser where the member is, on this site only.
    reply.header("Permissions-Policy", "camera=(self), microphone=(), geolocation=(self), payment=()");
    if (https) reply.header("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    // API answers carry session tokens, balances and keystores: no browser, proxy or service
    // worker cache may keep them (the app's offline copy is its own, deleted on sign-out).
    if (API_PREFIXES.some((p) => req.url.startsWith(p))) reply.header("Cache-Control", "no-store");
    // CSRF: SameSite=Strict already keeps the cookie off other sites' requests; this also refuses
    // a state-changing call that carries it from another origin (older browsers, sibling subdomains).
    // It applies whenever the cookie is what signs the request in (sessionCredential never lets a
    // cookie count beside an Authorization header).
    if (!SAFE_METHODS.has(req.method) && sessionCredential(req, s)?.via === "cookie" && crossSite(req, s)) {
      throw forbidden();
    }
  });
}
