import fs from "node:fs";
import path from "node:path";
import PO from "pofile";

/** The app's words in the language a test runs in: an English text with its {values} filled in, or its translation. */
export type Words = (english: string, values?: Record<string, string | number>) => string;

const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (whole, k: string) => String(values[k] ?? whole));

/** The app's words as they are written in the code: English. */
export const english: Words = (text, values = {}) => fill(text, values);

let frenchMessages: Map<string, string> | undefined;
/** The app's words in French, as its translation file has them (an untranslated text stays English, as in the app). */
export const french: Words = (text, values = {}) => {
  frenchMessages ??= new Map(
    PO.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../apps/web/src/locales/fr-FR.po"), "utf8")).items.map((i) => [
      i.msgid,
      i.msgstr[0] || i.msgid,
    ]),
  );
  return fill(frenchMessages.get(text) ?? text, values);
};

/** The login page's words, for a test in another language (regular expressions naming both, say). */
export interface SignInWords {
  email?: string | RegExp;
  password?: string | RegExp;
  signIn?: string | RegExp;
}

/** The login page's words in the page's language, for pages/members.ts's sign-in. */
export const signInWords = (t: Words): SignInWords => ({ email: t("Email"), password: t("Password"), signIn: t("Sign in") });
