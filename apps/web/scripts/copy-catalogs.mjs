// Compiled catalogs are served as static files at the url each language declares in config.json.
// The strings' own language (en-US) is bundled instead, and slimmed: its msgids are its texts, so
// only the messages whose compiled form is more than the text and its plain `{name}` placeholders
// (plurals) are kept; the app compiles every other msgid itself (lib/i18n.ts compilePlain). That
// leaves a handful of messages on the login page instead of every one.
import fs from "node:fs";
const src = new URL("../src/locales/", import.meta.url);
const dst = new URL("../public/i18n/", import.meta.url);
fs.mkdirSync(dst, { recursive: true });
for (const f of fs.readdirSync(src)) if (f.endsWith(".json") && !f.startsWith("en-US")) fs.copyFileSync(new URL(f, src), new URL(f, dst));

const sourceFile = new URL("en-US.json", src);
const { messages } = JSON.parse(fs.readFileSync(sourceFile, "utf8"));
// lib/i18n.ts compilePlain, the same rule (i18n.test.ts checks both against Lingui's compiler).
const compilePlain = (text) => text.split(/\{(\w+)\}/).flatMap((part, i) => (i % 2 ? [[part]] : part ? [part] : []));
const compiled = Object.fromEntries(Object.entries(messages).filter(([id, m]) => JSON.stringify(m) !== JSON.stringify(compilePlain(id))));
fs.writeFileSync(sourceFile, JSON.stringify({ messages: compiled }));
