import { describe, expect, it } from "vitest";
import { isPathOfThisServer } from "../src";
import { SaveAssociationSettingsBody } from "../src/api/schemas";

describe("a path of this server", () => {
  it("is one slash and a page's path", () => {
    for (const path of ["/", "/help", "/help/members?lang=fr#top", "/carto/index.html", "/a\\b"]) expect(isPathOfThisServer(path), path).toBe(true);
  });

  it("is never another server's address that browsers read from a slash and a slash or backslash, nor with spaces or controls they drop", () => {
    for (const path of [
      "//evil.example",
      "//evil.example/help",
      "/\\evil.example",
      "/\\\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/ /x",
      "/x\u0000",
    ])
      expect(isPathOfThisServer(path), JSON.stringify(path)).toBe(false);
    for (const path of ["", "help", " /help", "\\\\evil.example", "https://evil.example", "javascript:alert(1)"])
      expect(isPathOfThisServer(path), path).toBe(false);
  });

  it("is what the owners' settings take as a link on this server", () => {
    const links = SaveAssociationSettingsBody.shape.identity.shape.helpUrl;
    for (const ok of ["/help", "https://florain.example/help", null]) expect(links.safeParse(ok).success, String(ok)).toBe(true);
    for (const bad of ["//evil.example", "/\\evil.example", "/\t/evil.example", "https://x.example/<script>", "ftp://x.example"])
      expect(links.safeParse(bad).success, bad).toBe(false);
  });
});
