// Compiled catalogs are served as static files at the url each language declares in config.json.
import fs from "node:fs";
const src = new URL("../src/locales/", import.meta.url);
const dst = new URL("../public/i18n/", import.meta.url);
fs.mkdirSync(dst, { recursive: true });
for (const f of fs.readdirSync(src)) if (f.endsWith(".json") && !f.startsWith("en-US")) fs.copyFileSync(new URL(f, src), new URL(f, dst));
