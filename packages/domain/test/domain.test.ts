import { describe, expect, it } from "vitest";
import {
  MAX_AMOUNT_CENTS,
  MAX_AMOUNT_TEXT,
  formatCents,
  parseApiAmount,
  normalizeEmail,
  emailProblem,
  passwordProblems,
  signupProblems,
  newPasswordProblems,
  resolveConfig,
  apiBaseUrl,
  chooseLanguage,
  DEFAULT_LOCALES,
  renderMsg,
  M,
  SM,
} from "../src";

describe("money", () => {
  it("keeps the spec's maximum: (2^53-1)/128 with two decimals", () => {
    expect(MAX_AMOUNT_TEXT).toBe("70368744177663.99");
    expect(MAX_AMOUNT_CENTS).toBe(7036874417766399n);
  });
  it("round-trips API amounts", () => {
    for (const s of ["0.00", "0.05", "12.50", "-3.00", "70368744177663.99"]) {
      expect(formatCents(parseApiAmount(s)!)).toBe(s);
    }
  });
  it("refuses anything but exactly two decimals", () => {
    for (const s of ["1", "1.5", "1.505", "1e3", " 1.00", "1.00 ", "+1.00", "0x10.00", "", "NaN", "1,00"]) {
      expect(parseApiAmount(s)).toBeNull();
    }
  });
});

describe("email", () => {
  it("trims and lower-cases", () => expect(normalizeEmail("  Alice@Example.COM ")).toBe("alice@example.com"));
  it("gives the spec's messages", () => {
    expect(emailProblem("  ")?.id).toBe("This fiels can not be empty.");
    expect(emailProblem("alice@")?.id).toBe("Invalid email.");
    expect(emailProblem("alice@example")?.id).toBe("Invalid email.");
    expect(emailProblem("a b@example.com")?.id).toBe("Invalid email.");
  });
  it("accepts addresses Monujo wrongly refused", () => {
    for (const e of ["o'brien@example.ie", "alice+wallet@example.com", "zoé@exemple.fr", "a@café.fr"]) {
      expect(emailProblem(e)).toBeNull();
    }
  });
});

describe("passwords", () => {
  it("reports length with its number and the class message", () => {
    const p = passwordProblems("abc");
    expect(p.map(renderMsg)).toEqual([
      "Password must be at least 8 characters long",
      "Password should use at least one lowercase character, uppercase character, digit, symbol",
    ]);
  });
  it("accepts the demo password and needs every class", () => {
    expect(passwordProblems("Demo1234!")).toEqual([]);
    expect(passwordProblems("Demo12345")).toHaveLength(1);
    expect(passwordProblems("demo1234!")).toHaveLength(1);
    expect(passwordProblems("DEMO1234!")).toHaveLength(1);
    expect(passwordProblems("Demoabcd!")).toHaveLength(1);
  });
  it("checks the confirmation", () => {
    expect(newPasswordProblems("Demo1234!", "Demo1234?").confirmPassword?.id).toBe(M.passwordsNotEqual);
    expect(newPasswordProblems("Demo1234!", "Demo1234!")).toEqual({});
  });
});

describe("signup", () => {
  it("flags every invalid field with its message", () => {
    const p = signupProblems({ email: "", firstName: " ", lastName: "", password: "x", confirmPassword: "y" });
    expect(Object.keys(p).sort()).toEqual(["confirmPassword", "email", "firstName", "lastName", "password"]);
    expect(p.firstName?.id).toBe(M.fieldEmpty);
  });
  it("accepts a valid form", () => {
    expect(signupProblems({ email: "Dan@Example.com ", firstName: "Dan", lastName: "Doe", password: "Demo1234!", confirmPassword: "Demo1234!" })).toEqual({});
  });
});

describe("config", () => {
  it("fills every key with its default", () => {
    const c = resolveConfig({});
    expect(c.appName).toBe("Mutua");
    expect(c.accountsRefreshInterval).toBe(90);
    expect(c.localAuthPolicy).toEqual(["Retention", { time: 900, subConfig: ["Pin", {}] }]);
    expect(c.locales.availableLanguages["fr-FR"]?.url).toBe("/i18n/fr-FR.json");
  });
  it("reads refresh intervals as the spec says", () => {
    expect(resolveConfig({ accountsRefreshInterval: 3 }).accountsRefreshInterval).toBe(10);
    expect(resolveConfig({ accountsRefreshInterval: 0 }).accountsRefreshInterval).toBe(90);
    expect(resolveConfig({ accountsRefreshInterval: -1 }).accountsRefreshInterval).toBe(-1);
    expect(resolveConfig({ transactionsRefreshInterval: 47 }).transactionsRefreshInterval).toBe(47);
  });
  it("drops malformed values", () => {
    const c = resolveConfig({ appName: 3, mapUrl: "", theme: "red", hideProfile: "yes" });
    expect(c.appName).toBe("Mutua");
    expect(c.mapUrl).toBeUndefined();
    expect(c.theme).toEqual({});
    expect(c.hideProfile).toBe(false);
  });
  it("resolves lokapiHost like Monujo", () => {
    expect(apiBaseUrl("", "http://localhost:8080")).toBe("http://localhost:8080");
    expect(apiBaseUrl("example.org", "x")).toBe("https://example.org");
    expect(apiBaseUrl("http://127.0.0.1:9/", "x")).toBe("http://127.0.0.1:9");
  });
});

describe("language choice", () => {
  it("prefers saved, then navigator (also by primary tag), then default", () => {
    expect(chooseLanguage(DEFAULT_LOCALES, "fr-FR", ["en-US"])).toBe("fr-FR");
    expect(chooseLanguage(DEFAULT_LOCALES, null, ["fr-BE", "en"])).toBe("fr-FR");
    expect(chooseLanguage(DEFAULT_LOCALES, "de-DE", ["de-DE"])).toBe("en-US");
    expect(chooseLanguage({ ...DEFAULT_LOCALES, preferNavigatorLanguage: false }, null, ["fr"])).toBe("en-US");
  });
});

describe("messages", () => {
  it("renders ICU one/other plurals and placeholders in English", () => {
    expect(renderMsg({ id: SM.rateLimited, values: { minutes: 1 } })).toBe("Too many attempts. Please wait 1 minute and try again.");
    expect(renderMsg({ id: SM.rateLimited, values: { minutes: 15 } })).toBe("Too many attempts. Please wait 15 minutes and try again.");
    expect(renderMsg({ id: M.languageLoadFailed, values: { lang: "Français" } })).toBe("Failed to load language Français");
  });
});

describe("display formats", () => {
  it("shows amounts with exactly two decimals, grouped per language, without floats", async () => {
    const { formatAmount } = await import("../src/format");
    expect(formatAmount(123450n, "en-US")).toBe("1,234.50");
    expect(formatAmount(-5n, "en-US")).toBe("-0.05");
    expect(formatAmount(123450n, "fr-FR").replace(/\s/g, " ")).toBe("1 234,50");
    // Past 2^53 a float would round; the string path stays exact.
    expect(formatAmount(7036874417766399n, "en-US")).toBe("70,368,744,177,663.99");
  });
  it("shows a rate between linked currencies with 2 to 4 decimals, the language's way", async () => {
    const { formatRate } = await import("../src/format");
    expect(["1.5", "0.8", "12", "0.6667", "1.25"].map((r) => formatRate(r, "en-US"))).toEqual(["1.50", "0.80", "12.00", "0.6667", "1.25"]);
    expect(["1.5", "0.6667"].map((r) => formatRate(r, "fr-FR"))).toEqual(["1,50", "0,6667"]);
    expect(formatRate("123456.5", "fr-FR").replace(/\s/g, " ")).toBe("123 456,50");
  });
  it("dates carry the year and relative dates read naturally", async () => {
    const { formatDate, formatRelative } = await import("../src/format");
    const d = new Date("2026-03-11T10:00:00Z");
    expect(formatDate(d, "en-US", "UTC")).toBe("Mar 11, 2026");
    expect(formatDate(d, "fr-FR", "UTC")).toMatch(/^11 mars 2026$/);
    expect(formatRelative(new Date("2026-03-10T10:00:00Z"), d, "en-US")).toBe("yesterday");
    expect(formatRelative(new Date("2026-02-18T10:00:00Z"), d, "en-US")).toBe("3 weeks ago");
    expect(formatRelative(new Date("2026-03-11T08:00:00Z"), d, "fr-FR")).toBe("il y a 2 heures");
  });
  it("a receipt's time says today or yesterday by the calendar, in the member's language, else the day in full", async () => {
    const { formatWhen } = await import("../src/format-when");
    const now = new Date("2026-03-11T10:00:00Z");
    expect(formatWhen(new Date("2026-03-11T00:15:00Z"), now, "en-US", "UTC")).toMatch(/^Today, 12:15\sAM$/);
    expect(formatWhen(new Date("2026-03-11T12:15:00Z"), now, "fr-FR", "Europe/Paris")).toBe("Aujourd’hui, 13:15");
    // 23:50 the day before is yesterday, though less than 24 hours ago; in Paris it is already today.
    expect(formatWhen(new Date("2026-03-10T23:50:00Z"), now, "en-US", "UTC")).toMatch(/^Yesterday, 11:50\sPM$/);
    expect(formatWhen(new Date("2026-03-10T23:50:00Z"), now, "fr-FR", "Europe/Paris")).toBe("Aujourd’hui, 00:50");
    expect(formatWhen(new Date("2026-03-09T09:00:00Z"), now, "fr-FR", "UTC")).toBe("9 mars 2026 à 09:00");
  });
});

describe("deceptive characters refused in names and memos", () => {
  it("names refuse direction controls and invisible characters, and keep real names", async () => {
    const { nameProblem, M } = await import("../src");
    for (const bad of ["Alice\u202Egnp", "Al\u200Bice", "Bob\u2066x\u2069", "\u200FBob", "E\uFEFFve", "Ali\u200Dce", "Eve\u200C"]) {
      expect(nameProblem(bad), JSON.stringify(bad)).toEqual({ id: M.nameCharacters });
    }
    for (const good of ["Zoé", "Jean-Luc", "O'Brien", "محمد", "می\u200Cخواهم", "क्\u200Dष", "李小龙"]) expect(nameProblem(good), good).toBeNull();
  });

  it("memos refuse line breaks, control characters and direction overrides, and keep emoji and scripts", async () => {
    const { memoProblem, M } = await import("../src");
    for (const bad of ["rent\nfor May", "a\rb", "x\u2028y", "tab\there", "pay \u202Eexe.txt", "a\u0000b", "\u2067x\u2069"]) {
      expect(memoProblem(bad), JSON.stringify(bad)).toEqual({ id: M.memoCharacters });
    }
    for (const good of ["Lunch 🍕", "👨‍👩‍👧 groceries", "שכר דירה", "Café \u200F ok", "x".repeat(50)]) expect(memoProblem(good), good).toBeNull();
    expect(memoProblem("x".repeat(51))).toEqual({ id: M.memoTooLong });
  });

  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));

  it("names refuse every direction control and invisible character the review listed, wherever it stands", async () => {
    const { nameProblem, M } = await import("../src");
    const listed = ["\u061C", "\u200E", "\u200F", ...range(0x202a, 0x202e), ...range(0x2066, 0x2069), "\u200B", "\u200C", "\u200D", "\u2060", "\uFEFF"];
    for (const c of listed) {
      for (const name of [`${c}Alice`, `Al${c}ice`, `Alice${c}`]) expect(nameProblem(name), JSON.stringify(name)).toEqual({ id: M.nameCharacters });
    }
  });

  it("memos refuse every line break and direction override or isolate the review listed", async () => {
    const { memoProblem, M } = await import("../src");
    for (const c of ["\n", "\r", "\u2028", "\u2029", ...range(0x202a, 0x202e), ...range(0x2066, 0x2069)]) {
      expect(memoProblem(`rent ${c}May`), JSON.stringify(c)).toEqual({ id: M.memoCharacters });
    }
  });
});
