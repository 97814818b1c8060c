import { escapeHtml as e } from "./html";

/**
 * The first page of a server whose association is not set up yet, instead of the app (which
 * would show a sign-in nobody can use): what to run, and where. Plain HTML in the visitor's
 * language, no script; it reloads itself every few seconds, so the app opens once setup has run.
 */
const WORDS = {
  "en-US": {
    title: "Not set up yet",
    intro: "This association has no currency and no administrator yet. On the server, in Mutua's folder, run:",
    after:
      "It asks for the association's name, its currency and its first administrator, who then receives an e-mail to choose a password. This page opens the sign-in once it is done.",
  },
  "fr-FR": {
    title: "Pas encore configurée",
    intro: "Cette association n'a encore ni monnaie ni administrateur. Sur le serveur, dans le dossier de Mutua, lancez :",
    after:
      "La commande demande le nom de l'association, sa monnaie et son premier administrateur, qui reçoit ensuite un e-mail pour choisir son mot de passe. Cette page ouvre la connexion dès que c'est fait.",
  },
} as const;

const CSS = `:root{color-scheme:light dark}body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
h1{font-size:1.6rem}pre{padding:.75rem;border:1px solid #8888;border-radius:.6rem;overflow-x:auto}`;

/** How often the page asks again, in seconds. */
export const SETUP_PAGE_REFRESH = 5;

export function setupPageHtml(acceptLanguage: string | undefined): string {
  const language = /^\s*fr\b/i.test(acceptLanguage ?? "") ? "fr-FR" : "en-US";
  const w = WORDS[language];
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="refresh" content="${SETUP_PAGE_REFRESH}"><meta name="robots" content="noindex"><title>${e(w.title)}</title><style>${CSS}</style></head>
<body><main><h1>${e(w.title)}</h1><p>${e(w.intro)}</p><pre><code>npm run setup</code></pre><p>${e(w.after)}</p></main></body></html>`;
}
