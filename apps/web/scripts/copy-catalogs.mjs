// Compiled catalogs are served as static files at the url each language declares in config.json.
// The strings' own language (en-US) is bundled instead, and slimmed: its msgids are its texts, so
// only the messages whose compiled form differs from the text (placeholders, plurals) are kept;
// the app shows every other msgid as it is (lib/i18n.ts). That halves what the login page loads.
import fs from "node:fs";
const src = new URL("../src/locales/", import.meta.url);
const dst = new URL("../public/i18n/", import.meta.url);
fs.mkdirSync(dst, { recursive: true });
for (const f of fs.readdirSync(src)) if (f.endsWith(".json") && !f.startsWith("en-US")) fs.copyFileSync(new URL(f, src), new URL(f, dst));

const sourceFile = new URL("en-US.json", src);
const { messages } = JSON.parse(fs.readFileSync(sourceFile, "utf8"));
const compiled = Object.fromEntries(Object.entries(messages).filter(([id, m]) => !(Array.isArray(m) && m.length === 1 && m[0] === id)));
fs.writeFileSync(sourceFile, JSON.stringify({ messages: compiled }));
