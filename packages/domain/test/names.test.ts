import { describe, expect, it } from "vitest";
import { M, memberSinceDate, nameProblem, normalizeName, searchKey } from "../src";

const refused = { id: M.nameCharacters };
const cp = (n: number) => String.fromCodePoint(n);

describe("names: characters drawn as nothing or as a space are refused", () => {
  // Each class with real code points, at the start, inside and at the end of a name.
  const classes: Record<string, number[]> = {
    "format characters (Cf)": [0xad, 0x600, 0x6dd, 0x70f, 0x180e, 0x2061, 0x2064, 0xfff9, 0x110bd, 0x1d173],
    "tag characters": [0xe0001, 0xe0020, 0xe0041, 0xe007f],
    "default-ignorable code points": [0x34f, 0x17b4, 0x180b, 0xfe00, 0xfe0f, 0xfff0, 0xe0100],
    "line and paragraph separators": [0x2028, 0x2029],
    "blank look-alikes": [0x3164, 0x115f, 0x1160, 0xffa0, 0x2800],
    "private use and lone surrogates": [0xe000, 0xf8ff, 0xf0000, 0xd800, 0xdfff],
  };
  for (const [what, points] of Object.entries(classes)) {
    it(`refuses ${what}`, () => {
      for (const c of points.map(cp)) {
        for (const name of [`${c}Alice`, `Al${c}ice`, `Alice${c}`]) expect(nameProblem(name), JSON.stringify(name)).toEqual(refused);
      }
    });
  }

  it('refuses "Al\\u00ADice Martin", which shows as "Alice Martin"', () => {
    expect(nameProblem("Al\u00ADice Martin")).toEqual(refused);
  });

  it("refuses a joiner anywhere but between two letters of a script that needs it", () => {
    for (const name of [
      "Ali\u200Dce", // between Latin letters
      "Ali\u200Cce",
      "\u200Cمحمد", // at either end
      "محمد\u200D",
      "می\u200C خواهم", // beside a space
      "Ali\u200Cمحمد", // beside a Latin letter
      "ی\u200C\u200Cخ", // beside another joiner
      "क्\u200D1", // beside a digit
      "👨\u200D👩\u200D👧", // an emoji sequence
    ]) {
      expect(nameProblem(name), JSON.stringify(name)).toEqual(refused);
    }
  });

  it("keeps real names, the joiners of Persian, Arabic and Indic spellings included", () => {
    for (const name of [
      "Zoé",
      "Jean-Luc",
      "O'Brien",
      "محمد",
      "می\u200Cخواهم", // Persian: ZWNJ between two Arabic letters
      "نامه\u200Cها",
      "مُ\u200Cحَمَّد", // after an Arabic vowel mark (Script=Inherited, Script_Extensions=Arabic)
      "क्\u200Dष", // Devanagari: ZWJ after the virama, for the half form
      "র\u200D্য", // Bengali ya-phala: ZWJ before the virama
      "ശ്\u200Cശ", // Malayalam
      "李小龙",
      "Nguyễn Thị Minh Khai",
    ]) {
      expect(nameProblem(name), JSON.stringify(name)).toBeNull();
    }
  });

  it("stores spaces of every kind as one ordinary space, composed", () => {
    expect(normalizeName("\u00A0Alice\u3000\u2003Martin\u202F")).toBe("Alice Martin");
    expect(normalizeName("Zoe\u0301")).toBe("Zoé");
    expect(nameProblem("Alice\u00A0Martin")).toBeNull();
  });
});

describe("names that look alike have one search key", () => {
  it("folds case, accents, compatibility forms, spaces and invisible characters", () => {
    for (const name of ["Alice Martin", "alice  MARTIN", "Alice Martín", "Ａｌｉｃｅ Martin", "Al\u00ADice\u3000Martin", "Al\u200Bice Mar\u{E0041}tin"]) {
      expect(searchKey(name), JSON.stringify(name)).toBe("alice martin");
    }
    expect(searchKey("Alice Marti")).not.toBe("alice martin");
  });
});

describe("a name hint's date", () => {
  it("is a month, or a day when the hint has one, in the language's words", () => {
    expect(memberSinceDate("2024-03", "en-US")).toEqual({ date: "March 2024", day: false });
    expect(memberSinceDate("2024-03", "fr-FR")).toEqual({ date: "mars 2024", day: false });
    expect(memberSinceDate("2024-03-05", "en-US")).toEqual({ date: "March 5, 2024", day: true });
    expect(memberSinceDate("2024-03-05", "fr-FR")).toEqual({ date: "5 mars 2024", day: true });
  });
});
