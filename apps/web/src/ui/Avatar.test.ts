import { describe, expect, it } from "vitest";
import { avatarHue, initials } from "./Avatar";

describe("initials", () => {
  it("takes the first letters of the first two words, uppercase", () => {
    expect(initials("Alice Martin")).toBe("AM");
    expect(initials("bob durand dupont")).toBe("BD");
    expect(initials("  Jean-Pierre   Dupont ")).toBe("JD");
  });
  it("keeps accents and reads letters of any script", () => {
    expect(initials("Ève d'Orléans")).toBe("ÈD");
    // A decomposed accent stays with its letter.
    expect(initials("E\u0301lodie Roy")).toBe("E\u0301R");
    expect(initials("ólafur árnason")).toBe("ÓÁ");
    expect(initials("Дмитрий Иванов")).toBe("ДИ");
    expect(initials("李 小龍")).toBe("李小");
  });
  it("a single name gives one letter", () => {
    expect(initials("Alice")).toBe("A");
  });
  it("skips emoji and punctuation", () => {
    expect(initials("🌻 Alice Martin")).toBe("AM");
    expect(initials("(Bob) Durand")).toBe("BD");
    expect(initials("🌻")).toBe("");
  });
  it("an empty name has none", () => {
    expect(initials("")).toBe("");
    expect(initials("   ")).toBe("");
  });
});

describe("avatarHue", () => {
  it("is one of four, the same for the same name", () => {
    expect(avatarHue("Alice Martin")).toBe(avatarHue("Alice Martin"));
    const hues = new Set(["Alice Martin", "Bob Durand", "Carol Petit", "Dan Moreau", "Ève d'Orléans", "", "🌻"].map(avatarHue));
    for (const h of hues) expect([0, 1, 2, 3]).toContain(h);
    expect(hues.size).toBeGreaterThan(1);
  });
});
