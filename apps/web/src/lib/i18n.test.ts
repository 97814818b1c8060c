import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import sourceCatalog from "../locales/en-US.json";
import { compilePlain, localizeAmounts } from "./i18n";

describe("amounts in messages", () => {
  it("writes the API's amounts, with or without their currency, as the language does; other values stay", () => {
    expect(localizeAmounts({ amount: "5.00 DL", maxValue: "1234.50", balance: "-0.05", name: "Alice 2.50", minutes: 3 }, "fr-FR")).toEqual({
      amount: "5,00 DL",
      maxValue: "1\u202f234,50",
      balance: "-0,05",
      name: "Alice 2.50",
      minutes: 3,
    });
    expect(localizeAmounts({ amount: "1234.50 DL" }, "en-US")).toEqual({ amount: "1,234.50 DL" });
  });
});

describe("the bundled source catalog", () => {
  it("leaves out exactly the messages the app compiles as Lingui's compiler does", () => {
    const po = fs.readFileSync(path.join(import.meta.dirname, "../locales/en-US.po"), "utf8");
    const ids = [...po.matchAll(/^msgid "((?:[^"\\]|\\.)*)"$/gm)].map((m) => JSON.parse(`"${m[1]}"`) as string).filter((id) => id !== "");
    expect(ids.length).toBeGreaterThan(100);
    const bundled = (sourceCatalog as { messages: Record<string, unknown> }).messages;
    for (const id of ids) {
      if (id in bundled) expect(compilePlain(id), id).not.toEqual(compileMessage(id));
      else expect(compilePlain(id), id).toEqual(compileMessage(id));
    }
    // A plural is what stays.
    expect(Object.keys(bundled).every((id) => /\{\w+, (plural|select)/.test(id))).toBe(true);
  });
});
