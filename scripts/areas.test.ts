import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AREAS } from "../packages/domain/src/areas";

/**
 * Every layer is cut by the areas of packages/domain/src/areas.ts, one folder each: the server's
 * services, the contract's tables, the app's features. An area imports only from those declared
 * before it: code that needs one after it is in the wrong area, or what it needs is. The app has
 * layers of its own besides (lib, ui, data, features, app, each using only those before it), and
 * an area of the app shows the others one face, its index.ts.
 */
const ROOT = path.resolve(import.meta.dirname, "..");

/** A source file, relative to the folder being checked, and the relative imports it makes as written. */
export interface Source {
  file: string;
  imports: string[];
  /** Those of its imports that load a module on demand (`import("…")`). */
  onDemand?: string[];
}

const IMPORT = /(?:^(?:import|export)[^"';]*?from\s+|^import\s+|\bimport\(\s*)["'](\.{1,2}\/[^"']+)["']/gm;

function sourcesUnder(dir: string, match: RegExp): Source[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && match.test(e.name))
    .map((e) => {
      const file = path.relative(dir, path.join(e.parentPath, e.name));
      const found = [...fs.readFileSync(path.join(dir, file), "utf8").matchAll(IMPORT)];
      return { file, imports: found.map((m) => m[1]!), onDemand: found.filter((m) => m[0].includes("(")).map((m) => m[1]!) };
    });
}

/** Each import from one area into another declared after it, and each file outside a declared area. */
export function againstTheOrder(files: Source[], order: readonly string[]): string[] {
  const rank = new Map(order.map((a, i) => [a, i]));
  const problems: string[] = [];
  for (const { file, imports } of files) {
    const area = file.split(path.sep)[0]!;
    if (!rank.has(area)) {
      problems.push(`${file}: ${area} is no declared area`);
      continue;
    }
    for (const spec of imports) {
      const target = path.normalize(path.join(path.dirname(file), spec));
      if (target.startsWith("..")) continue; // what lies below every area (db/, settings, lib/…)
      const other = target.split(path.sep)[0]!;
      if (other !== area && (rank.get(other) ?? Infinity) > rank.get(area)!) problems.push(`${file} → ${target} (${area} before ${other})`);
    }
  }
  return problems;
}

/** The app's layers, lowest first (the catalogs below all); main.tsx stands with app/. */
export const WEB_LAYERS = ["locales", "lib", "ui", "data", "features", "app"] as const;
const layerOf = (file: string) => (file.includes(path.sep) ? file.split(path.sep)[0]! : "app");
const isTest = (file: string) => /\.test\.tsx?$|\.testing\.tsx?$/.test(file);

/**
 * The app's rules, on files relative to apps/web/src: no layer imports one above it; the features
 * are cut by the areas, in their order; and an area reaches another only through that area's face
 * (features/<area>/index.ts), which shows nothing but its own area's modules. A module loaded on
 * demand is named by its path, by an area as by app/: through a face, the bundler would make the
 * face a download of its own, shared by all who use it. Tests may reach inside another area (a
 * payment's test drives the real unlocking).
 */
export function webProblems(files: Source[], order: readonly string[]): string[] {
  const problems: string[] = [];
  const rank = new Map(order.map((a, i) => [a, i]));
  for (const { file, imports, onDemand = [] } of files) {
    const layer = layerOf(file);
    if (!(WEB_LAYERS as readonly string[]).includes(layer)) {
      problems.push(`${file}: ${layer} is no layer of the app`);
      continue;
    }
    const area = layer === "features" ? file.split(path.sep)[1]! : undefined;
    if (area !== undefined && !rank.has(area)) {
      problems.push(`${file}: ${area} is no declared area`);
      continue;
    }
    const face = area !== undefined && file === path.join("features", area, "index.ts");
    for (const spec of imports) {
      const target = path.normalize(path.join(path.dirname(file), spec));
      const targetLayer = layerOf(target);
      if (WEB_LAYERS.indexOf(targetLayer as (typeof WEB_LAYERS)[number]) > WEB_LAYERS.indexOf(layer as (typeof WEB_LAYERS)[number])) {
        problems.push(`${file} → ${target} (${layer} is below ${targetLayer})`);
        continue;
      }
      if (area === undefined || targetLayer !== "features") continue;
      const other = target.split(path.sep)[1]!;
      if (other === area) continue;
      if (face) problems.push(`${file} → ${target} (a face shows its own area only)`);
      else if ((rank.get(other) ?? Infinity) > rank.get(area)!) problems.push(`${file} → ${target} (${area} before ${other})`);
      else if (target !== path.join("features", other) && !isTest(file) && !onDemand.includes(spec))
        problems.push(`${file} → ${target} (past the face of ${other})`);
    }
  }
  return problems;
}

describe("the areas", () => {
  it("each server service folder is a declared area, and imports only from the areas declared before it", () => {
    expect(againstTheOrder(sourcesUnder(path.join(ROOT, "apps/server/src/services"), /\.ts$/), AREAS)).toEqual([]);
  });

  it("the contract's area folders import only from the areas declared before them", () => {
    const DOMAIN = path.join(ROOT, "packages/domain/src");
    const files = AREAS.filter((a) => fs.existsSync(path.join(DOMAIN, a))).flatMap((area) =>
      sourcesUnder(path.join(DOMAIN, area), /\.ts$/).map((s) => ({
        file: path.join(area, s.file),
        // The domain's own flat modules (../vocabulary) are below every area.
        imports: s.imports.filter((i) => /^\.\.\/[a-z-]+\//.test(i) || i.startsWith("./")),
      })),
    );
    expect(files.length).toBeGreaterThan(AREAS.length - 1);
    expect(againstTheOrder(files, AREAS)).toEqual([]);
  });

  it("the app's features are cut by the declared areas, each reaching those before it through their faces, and no layer imports one above it", () => {
    const files = sourcesUnder(path.join(ROOT, "apps/web/src"), /\.tsx?$/);
    expect(files.filter((f) => f.file.startsWith("features")).length).toBeGreaterThan(100);
    expect(webProblems(files, AREAS)).toEqual([]);
  });

  it("finds an import planted against the order, and a folder nobody declared", () => {
    const planted = [
      { file: path.join("ledger", "ledger.ts"), imports: ["../board/figures", "../platform/errors", "./batching"] },
      { file: path.join("payments", "asks.ts"), imports: ["../../db/pool", "../members/directory"] },
      { file: path.join("misc", "util.ts"), imports: [] },
    ];
    expect(againstTheOrder(planted, AREAS)).toEqual([
      `${path.join("ledger", "ledger.ts")} → ${path.join("board", "figures")} (ledger before board)`,
      `${path.join("misc", "util.ts")}: misc is no declared area`,
    ]);
  });

  it("finds, in the app, an area importing a later one, an import past a face, a face showing another area, and a layer importing one above it", () => {
    const f = (...parts: string[]) => path.join(...parts);
    const planted = [
      { file: f("features", "wallets", "accounts", "labels.ts"), imports: ["../../payments", "../unlock/pins", "../../../lib/format"] },
      {
        file: f("features", "payments", "send", "Send.tsx"),
        imports: ["../../wallets/unlock/pins", "../../wallets", "../../../data/session", "../../wallets/wallet-file/key-proof"],
        onDemand: ["../../wallets/wallet-file/key-proof"],
      },
      { file: f("features", "payments", "send", "send.test.ts"), imports: ["../../wallets/unlock/unlock-flow"] },
      { file: f("features", "payments", "index.ts"), imports: ["./send/send-payment", "../wallets/accounts/labels"] },
      { file: f("features", "misc", "x.ts"), imports: [] },
      { file: f("lib", "format.ts"), imports: ["../ui/icons", "./dates"] },
      { file: f("data", "session.ts"), imports: ["../features/wallets"] },
      { file: f("app", "routes.tsx"), imports: ["../features/payments/send/Send", "../locales/en-US.json"] },
    ];
    expect(webProblems(planted, AREAS)).toEqual([
      `${f("features", "wallets", "accounts", "labels.ts")} → ${f("features", "payments")} (wallets before payments)`,
      `${f("features", "payments", "send", "Send.tsx")} → ${f("features", "wallets", "unlock", "pins")} (past the face of wallets)`,
      `${f("features", "payments", "index.ts")} → ${f("features", "wallets", "accounts", "labels")} (a face shows its own area only)`,
      `${f("features", "misc", "x.ts")}: misc is no declared area`,
      `${f("lib", "format.ts")} → ${f("ui", "icons")} (lib is below ui)`,
      `${f("data", "session.ts")} → ${f("features", "wallets")} (data is below features)`,
    ]);
  });
});
