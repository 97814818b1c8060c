import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The server's layers point one way: routes and the Lokavaluto face translate, services decide
 * and hold the SQL, http/ alone knows HTTP. (Import cycles are refused by the linter, oxlint's
 * import/no-cycle, type-only imports included.)
 */
const SRC = path.join(import.meta.dirname, "../src");

function files(dir: string): string[] {
  return fs
    .readdirSync(path.join(SRC, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => path.relative(SRC, path.join(e.parentPath, e.name)));
}
const read = (f: string) => fs.readFileSync(path.join(SRC, f), "utf8");
const imports = (f: string) => [...read(f).matchAll(/^(?:import|export)[^"']*from\s+["']([^"']+)["']/gm)].map((m) => path.join(path.dirname(f), m[1]!));

describe("the server's layers", () => {
  it("services never import from http/", () => {
    const offending = files("services").flatMap((f) =>
      imports(f)
        .filter((i) => i.startsWith("http/"))
        .map((i) => `${f} → ${i}`),
    );
    expect(offending).toEqual([]);
  });

  it("settings import no service", () => {
    expect(imports("settings.ts").filter((i) => i.startsWith("services/"))).toEqual([]);
  });

  it("the Lokavaluto face runs no SQL of its own", () => {
    const sql = /\.query\s*[<(]|\b(SELECT|INSERT|UPDATE|DELETE)\b[^\n]*\b(FROM|INTO|SET)\b/;
    const offending = files("lokavaluto").filter((f) => sql.test(read(f)));
    expect(offending).toEqual([]);
  });
});
