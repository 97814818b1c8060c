import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AREAS } from "@mutua/domain/areas";

/**
 * The server's services and the domain's area folders are cut by the areas of
 * packages/domain/src/areas.ts, one folder each, and an area imports only from those declared
 * before it: code that needs one after it is in the wrong area, or what it needs is.
 */
const SERVICES = path.join(import.meta.dirname, "../src/services");

interface Source {
  /** The area's folder and the file within it: "payments/asks.ts". */
  file: string;
  /** The relative imports it makes, as written. */
  imports: string[];
}

function sources(): Source[] {
  return fs
    .readdirSync(SERVICES, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => {
      const file = path.relative(SERVICES, path.join(e.parentPath, e.name));
      const text = fs.readFileSync(path.join(SERVICES, file), "utf8");
      const imports = [...text.matchAll(/^(?:import|export)[^"']*from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/gm)].map((m) => (m[1] ?? m[2])!);
      return { file, imports };
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
      if (target.startsWith("..")) continue; // db/, settings: below every area
      const other = target.split(path.sep)[0]!;
      if (other !== area && (rank.get(other) ?? Infinity) > rank.get(area)!) problems.push(`${file} → ${target} (${area} before ${other})`);
    }
  }
  return problems;
}

describe("the server's areas", () => {
  it("each service folder is a declared area, and imports only from the areas declared before it", () => {
    expect(againstTheOrder(sources(), AREAS)).toEqual([]);
  });

  it("the domain's area folders import only from the areas declared before them", () => {
    const DOMAIN = path.join(import.meta.dirname, "../../../packages/domain/src");
    const files = AREAS.filter((a) => fs.existsSync(path.join(DOMAIN, a))).flatMap((area) =>
      fs
        .readdirSync(path.join(DOMAIN, area))
        .filter((f) => f.endsWith(".ts"))
        .map((f) => {
          const text = fs.readFileSync(path.join(DOMAIN, area, f), "utf8");
          // Imports of the domain's own flat modules (../vocabulary) are below every area.
          const imports = [...text.matchAll(/^import[^"']*from\s+["'](\.[^"']+)["']/gm)]
            .map((m) => m[1]!)
            .filter((i) => /^\.\.\/[a-z-]+\//.test(i) || i.startsWith("./"));
          return { file: path.join(area, f), imports };
        }),
    );
    expect(files.length).toBeGreaterThan(AREAS.length - 1);
    expect(againstTheOrder(files, AREAS)).toEqual([]);
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
});
