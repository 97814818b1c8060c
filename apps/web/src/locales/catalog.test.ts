import fs from "node:fs";
import path from "node:path";
import PO from "pofile";
import { describe, expect, it } from "vitest";
import { M, SM } from "@mutua/domain";

/**
 * Every English text the app can show must be translated in every catalog: the texts of the
 * app's own `i18n._("…")` calls, route titles (`title: "…"`) and messages built as data (`msg("…")`), and the domain's
 * and the server's messages (which travel as data).
 */
const SRC = path.resolve(import.meta.dirname, "..");

function sourceMsgids(): Set<string> {
  const ids = new Set<string>([...Object.values(M), ...Object.values(SM)]);
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !e.name.endsWith(".test.ts")) {
        const text = fs.readFileSync(p, "utf8");
        for (const m of text.matchAll(/(?:(?:i18n\._|\bh|\bmsg)\(|\btitle:)\s*"((?:[^"\\]|\\.)*)"/g)) ids.add(JSON.parse(`"${m[1]}"`));
      }
    }
  };
  walk(SRC);
  return ids;
}

const placeholders = (s: string) => [...s.matchAll(/\{\s*(\w+)\s*\}/g)].map((m) => m[1]).sort();

describe("catalogs", () => {
  const ids = sourceMsgids();
  for (const file of fs.readdirSync(path.join(SRC, "locales")).filter((f) => f.endsWith(".po") && !f.startsWith("en-US"))) {
    it(`${file} translates every text with the same placeholders`, () => {
      const po = PO.parse(fs.readFileSync(path.join(SRC, "locales", file), "utf8"));
      const translated = new Map(po.items.filter((i) => !i.obsolete).map((i) => [i.msgid, i.msgstr[0] ?? ""]));
      const missing = [...ids].filter((id) => !translated.get(id));
      expect(missing, `missing in ${file}`).toEqual([]);
      for (const id of ids) expect(placeholders(translated.get(id)!), id).toEqual(placeholders(id));
      for (const item of po.items) expect(item.extractedComments, item.msgid).toContain("js-lingui-explicit-id");
    });
  }
  it("en-US.po lists every text, so the source language is compiled too", () => {
    const po = PO.parse(fs.readFileSync(path.join(SRC, "locales", "en-US.po"), "utf8"));
    const listed = new Set(po.items.filter((i) => !i.obsolete).map((i) => i.msgid));
    expect([...ids].filter((id) => !listed.has(id))).toEqual([]);
  });
  it("finds the texts of the app", () => {
    expect(ids.has("Forgot password ?")).toBe(true);
    expect(ids.has("Approval of top-up requests")).toBe(true);
    expect(ids.has(M.invalidCredentials)).toBe(true);
  });
});
