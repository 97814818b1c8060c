import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { presetNames, requiredHeaders, type FileKind } from "../src/services/import/presets";
import { FALSE_WORDS, TRUE_WORDS } from "../src/services/import/values";

/**
 * What docs/operations.md says of the files an association moves in with is what the code reads:
 * the presets with their required columns, and the words a yes/no cell takes. The doc is where a
 * volunteer learns how to write their spreadsheet: it must not drift from the code.
 */
const doc = fs.readFileSync(path.resolve(import.meta.dirname, "../../../docs/operations.md"), "utf8");
const section = (heading: string) => {
  const start = doc.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const rest = doc.slice(start + heading.length + 2);
  return rest.slice(0, rest.search(/\n#{2,3} /));
};
const code = (text: string) => [...text.matchAll(/`([^`]*)`/g)].map((m) => m[1]!);

describe("docs/operations.md on moving in", () => {
  it("lists every preset with the columns the code requires of it, and no other", () => {
    const rows = section("### Presets")
      .split("\n")
      .filter((l) => l.startsWith("| `"))
      .map((l) => l.split("|").map((c) => c.trim()));
    const documented = rows.map(([, preset, kind, required]) => ({ preset: code(preset!)[0], kind, required: required! }));
    const expected = (["members", "history"] as FileKind[]).flatMap((kind) =>
      requiredHeaders(kind).map((p) => ({
        preset: p.preset,
        kind,
        // `first_name` + `last_name` or `name`: each header quoted, a group's joined by +, alternatives by "or".
        required: p.required
          .map((alternatives) =>
            alternatives
              .map((group) =>
                group
                  .split(" + ")
                  .map((h) => `\`${h}\``)
                  .join(" + "),
              )
              .join(" or "),
          )
          .join(", "),
      })),
    );
    expect(documented).toEqual(expected);
    expect(documented.map((d) => d.preset)).toEqual([...presetNames("members"), ...presetNames("history")]);
  });

  it("gives the yes/no words a cell is read by", () => {
    const words = section("### Mutua's file format");
    const yes = /^- yes: (.*)$/m.exec(words)?.[1] ?? "";
    const no = /^- no: (.*)$/m.exec(words)?.[1] ?? "";
    expect(new Set(code(yes))).toEqual(TRUE_WORDS);
    // The empty cell is said in words.
    expect(no).toContain("or an empty cell");
    expect(new Set(["", ...code(no)])).toEqual(FALSE_WORDS);
  });
});
