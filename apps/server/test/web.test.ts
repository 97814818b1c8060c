import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_VERSION, DEFAULT_CONFIG, ErrorCode, M, buildPath, resolveConfig, routes, type AppConfig } from "@mutua/domain";
import { http, type ErrorJson } from "./helpers";
import { setupServerTest } from "./setup";

const t = setupServerTest();
let tmp: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-test-web-"));
});

afterAll(async () => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("config.json", () => {
  it("serves every key of the app config with its default, and an empty lokapiHost", async () => {
    const r = await http<AppConfig>(t.server.baseUrl, "GET", "/config.json");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.headers.get("cache-control")).toBe("no-cache");
    // Once set up, the app bears the association's name (the test database's is "Association").
    expect(r.json).toEqual({ ...resolveConfig({}), appName: "Association" });
    for (const key of Object.keys(DEFAULT_CONFIG)) expect(r.json, key).toHaveProperty(key);
    expect(r.json.lokapiHost).toBe("");
  });

  it("points lokapiHost at PUBLIC_URL when it is set", async () => {
    const s = await t.startServer({ env: { PUBLIC_URL: "https://wallet.example.org/" } });
    const r = await http<AppConfig>(s.baseUrl, "GET", "/config.json");
    expect(r.json).toEqual({ ...resolveConfig({}), appName: "Association", lokapiHost: "https://wallet.example.org" });
  });

  it("fills the keys an association's file leaves out, never lets it redirect the app elsewhere, and names the app after the association", async () => {
    const file = path.join(tmp, "config.json");
    fs.writeFileSync(file, JSON.stringify({ appName: "Lokal", lokapiHost: "odoo.example.com", accountsRefreshInterval: 3, hideProfile: true }));
    const s = await t.startServer({ env: { APP_CONFIG: file } });
    const r = await http<AppConfig>(s.baseUrl, "GET", "/config.json");
    expect(r.json).toEqual({ ...resolveConfig({}), appName: "Association", accountsRefreshInterval: 10, hideProfile: true, lokapiHost: "" });
  });

  it("makes the web app manifest from the association's config: name, logo and colours", async () => {
    const plain = await http<Record<string, unknown>>(t.server.baseUrl, "GET", "/manifest.webmanifest");
    expect(plain.headers.get("content-type")).toContain("application/manifest+json");
    expect(plain.json).toMatchObject({
      name: "Association",
      display: "standalone",
      start_url: "/",
      icons: [{ src: "/logo.svg", type: "image/svg+xml", sizes: "any" }],
    });

    const file = path.join(tmp, "branded.json");
    fs.writeFileSync(
      file,
      JSON.stringify({ appName: "Lokal", logoUrl: "/brand.png", theme: { "top-menu-background-color": "#123456", "color-1": "#fafafa" } }),
    );
    const s = await t.startServer({ env: { APP_CONFIG: file } });
    const r = await http<Record<string, unknown>>(s.baseUrl, "GET", "/manifest.webmanifest");
    expect(r.json).toMatchObject({
      name: "Association",
      short_name: "Association",
      theme_color: "#123456",
      background_color: "#fafafa",
      icons: [{ src: "/brand.png", type: "image/png" }],
    });
  });
});

describe("API errors", () => {
  it("answers health with the version", async () => {
    const r = await http(t.server.baseUrl, "GET", buildPath("health"));
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: "ok", version: APP_VERSION });
  });

  it.each([
    ["GET", "/api/nope"],
    ["POST", "/api/auth/nope"],
    ["GET", "/api/me/rights/nope"],
    ["DELETE", "/api/me"],
    ["GET", "/api/docs.js"],
  ])("%s %s is a 404 with a JSON error body", async (method, p) => {
    const r = await http<ErrorJson>(t.server.baseUrl, method, p);
    expect(r.status).toBe(404);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.json).toEqual({ error: { code: ErrorCode.notFound, message: M.notFound, msgid: M.notFound } });
  });

  const login = buildPath("login");
  const badBodies: [string, { rawBody?: string; body?: unknown; headers?: Record<string, string> }, number][] = [
    ["malformed JSON", { rawBody: '{"login": "a@b.c", "password": ', headers: { "content-type": "application/json" } }, 400],
    ["an empty JSON body", { rawBody: "", headers: { "content-type": "application/json" } }, 400],
    ["no body at all", {}, 400],
    ["a JSON array", { body: [1, 2] }, 400],
    ["a JSON string", { body: "hello" }, 400],
    ["null", { rawBody: "null", headers: { "content-type": "application/json" } }, 400],
    ["wrong field types", { body: { login: 1, password: true } }, 400],
    ["a form body", { rawBody: "login=a&password=b", headers: { "content-type": "application/x-www-form-urlencoded" } }, 415],
    ["an oversized body", { body: { login: "a@b.c", password: "x".repeat(100_000) } }, 413],
  ];

  it.each(badBodies)("login with %s is a client error with an error body, never a 500", async (_what, opts, status) => {
    const r = await http<ErrorJson>(t.server.baseUrl, "POST", login, opts);
    expect(r.status).toBe(status);
    expect(r.json.error.code).toBe(ErrorCode.validation);
    expect(typeof r.json.error.message).toBe("string");
    expect(r.json.error.msgid).toBe(M.invalidRequest);
  });

  it("names the offending fields of a body that breaks the schema", async () => {
    const r = await http<ErrorJson>(t.server.baseUrl, "POST", login, { body: { login: "a@b.c" } });
    expect(r.status).toBe(400);
    expect(r.json.error.fields).toEqual({ password: { msgid: M.invalidRequest } });
  });
});

describe("OpenAPI document", () => {
  it("lists every operation of the contract", async () => {
    const r = await http<{ openapi: string; info: { version: string }; paths: Record<string, Record<string, { operationId?: string; security?: unknown }>> }>(
      t.server.baseUrl,
      "GET",
      "/api/docs/json",
    );
    expect(r.status).toBe(200);
    expect(r.json.openapi).toMatch(/^3\./);
    expect(r.json.info.version).toBe(APP_VERSION);
    for (const [name, route] of Object.entries(routes)) {
      const p = route.path.replace(/:(\w+)/g, "{$1}");
      const op = r.json.paths[p]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${p}`).toBeDefined();
      expect(op!.operationId).toBe(name);
    }
    expect(r.json.paths[buildPath("getMyContact")]!.get!.security).toEqual([{ session: [] }]);
    expect(r.json.paths[buildPath("login")]!.post!.security).toBeUndefined();
    // config.json is for the app, not an API operation.
    expect(r.json.paths["/config.json"]).toBeUndefined();
  });

  it("serves the documentation page", async () => {
    const r = await http(t.server.baseUrl, "GET", "/api/docs/");
    expect(r.status).toBe(200);
    expect(r.text).toMatch(/swagger/i);
  });
});

describe("web app", () => {
  it("says plainly that the app is not built when it is not", async () => {
    const r = await http(t.server.baseUrl, "GET", "/wallet");
    expect(r.status).toBe(503);
    expect(r.text).toContain("npm run build");
  });

  it("serves the built app, with client-side routes falling back to index.html", async () => {
    const web = path.join(tmp, "dist");
    fs.mkdirSync(path.join(web, "assets"), { recursive: true });
    fs.writeFileSync(path.join(web, "index.html"), "<!doctype html><title>Mutua</title>");
    fs.writeFileSync(path.join(web, "assets", "app-abc123.js"), "console.log(1)");
    const s = await t.startServer({ env: { WEB_DIR: web } });

    for (const p of ["/", "/wallet", "/reset-password?token=abc"]) {
      const r = await http(s.baseUrl, "GET", p);
      expect(r.status, `${p}: ${r.text.slice(0, 200)}`).toBe(200);
      expect(r.text).toContain("<title>Association</title>");
      expect(r.headers.get("cache-control")).toBe("no-cache");
    }
    const asset = await http(s.baseUrl, "GET", "/assets/app-abc123.js");
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toContain("immutable");
    // A missing file or API path must not be answered with the app's HTML.
    expect((await http(s.baseUrl, "GET", "/assets/missing.js")).status).toBe(404);
    // A source map left in the folder (full sources, build paths) is not published.
    fs.writeFileSync(path.join(web, "assets", "app-abc123.js.map"), JSON.stringify({ sources: ["/home/build/src/main.tsx"], sourcesContent: ["secret"] }));
    fs.writeFileSync(path.join(web, "sw.js.map"), JSON.stringify({ sources: ["/home/build/src/sw.ts"], sourcesContent: ["secret"] }));
    // Nor under another spelling of its path (a doubled slash is refused for every file, with 403).
    for (const p of [
      "/assets/app-abc123.js.map",
      "/assets/app-abc123.js%2Emap",
      "/assets/app-abc123.js.map?v=1",
      "/assets/./app-abc123.js.map",
      "/assets/x/../app-abc123.js.map",
      "/sw.js.map",
      "/assets//app-abc123.js.map",
    ]) {
      const map = await http(s.baseUrl, "GET", p);
      expect(map.status, p).toBe(p.includes("//") ? 403 : 404);
      expect(map.text, p).not.toContain("sourcesContent");
    }
    const api = await http<ErrorJson>(s.baseUrl, "GET", "/api/nope");
    expect(api.status).toBe(404);
    expect(api.json.error.code).toBe(ErrorCode.notFound);
  });

  it("titles the app's page and config.json after the association, following a rename at once", async () => {
    const web = path.join(tmp, "dist-titled");
    fs.mkdirSync(web, { recursive: true });
    fs.writeFileSync(path.join(web, "index.html"), "<!doctype html><head><title>Mutua</title></head><div id=root></div>");
    const s = await t.startServer({ env: { WEB_DIR: web } });
    expect((await http(s.baseUrl, "GET", "/")).text).toContain("<title>Association</title>");
    await t.db.query("UPDATE association SET name = $1", [`Le "Galet" & <Co>`]);
    try {
      const deadline = Date.now() + 10_000;
      while ((await http<AppConfig>(s.baseUrl, "GET", "/config.json")).json.appName !== `Le "Galet" & <Co>`) {
        if (Date.now() > deadline) throw new Error("config.json never took the new name");
        await new Promise((r) => setTimeout(r, 50));
      }
      const page = await http(s.baseUrl, "GET", "/sign-in");
      expect(page.text).toContain("<title>Le &#34;Galet&#34; &#38; &#60;Co&#62;</title>");
      expect(page.text).toContain("<div id=root></div>");
      expect((await http<Record<string, unknown>>(s.baseUrl, "GET", "/manifest.webmanifest")).json.name).toBe(`Le "Galet" & <Co>`);
    } finally {
      await t.db.query("UPDATE association SET name = 'Association'");
    }
  });

  it("compresses what it sends to clients that accept it", async () => {
    const web = path.join(tmp, "dist-big");
    fs.mkdirSync(path.join(web, "assets"), { recursive: true });
    fs.writeFileSync(path.join(web, "index.html"), "<!doctype html><title>Mutua</title>");
    const js = `export const data = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ i, label: "row" })))};`;
    fs.writeFileSync(path.join(web, "assets", "big-1.js"), js);
    const s = await t.startServer({ env: { WEB_DIR: web } });
    const raw = await new Promise<{ encoding: string | undefined; bytes: number }>((resolve, reject) => {
      // node:http, not fetch: fetch decompresses and hides the encoding on the wire.
      const req = httpRequest(`${s.baseUrl}/assets/big-1.js`, { headers: { "accept-encoding": "gzip" } }, (res) => {
        let bytes = 0;
        res.on("data", (d: Buffer) => (bytes += d.length));
        res.on("end", () => resolve({ encoding: res.headers["content-encoding"], bytes }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(raw.encoding).toBe("gzip");
    expect(raw.bytes).toBeLessThan(js.length / 5);
    const plain = await http(s.baseUrl, "GET", "/assets/big-1.js", { headers: { "accept-encoding": "identity" } });
    expect(plain.text).toBe(js);
  });
});
