import { buildPath, type MemberLanguage } from "@mutua/domain";
import { escapeHtml as e } from "./html";

/**
 * The page of the link confirming a new e-mail address, in the member's language: plain HTML,
 * every value escaped. Opening it changes nothing (mail scanners open links); its button does.
 */

type Page =
  | { state: "ask"; email: string; token: string; language: MemberLanguage }
  | { state: "done"; email: string; language: MemberLanguage }
  | { state: "taken" | "invalid"; language: MemberLanguage };

interface Words {
  title: string;
  ask: (email: string) => string;
  button: string;
  doneTitle: string;
  done: (email: string) => string;
  open: string;
  takenTitle: string;
  taken: string;
  invalidTitle: string;
  invalid: string;
}

const WORDS: Record<MemberLanguage, Words> = {
  "en-US": {
    title: "Confirm your new e-mail address",
    ask: (email) => `Press the button to use ${email} for your account from now on: you will sign in with it, and our messages will go there.`,
    button: "Confirm this address",
    doneTitle: "Your e-mail address was changed",
    done: (email) => `Done: your e-mail address is now ${email}. Sign in with it from now on.`,
    open: "Open the app",
    takenTitle: "This address is already taken",
    taken: "Another member uses this e-mail address now: your address stays as it was. Choose another one in your profile.",
    invalidTitle: "This link is not valid",
    invalid: "It was already used, it has expired, or it was cut. Your address stays as it was: change it again from your profile to get a new link.",
  },
  "fr-FR": {
    title: "Confirmez votre nouvelle adresse e-mail",
    ask: (email) =>
      `Appuyez sur le bouton pour utiliser désormais ${email} pour votre compte : vous vous connecterez avec elle, et nos messages y seront envoyés.`,
    button: "Confirmer cette adresse",
    doneTitle: "Votre adresse e-mail a été changée",
    done: (email) => `C'est fait : votre adresse e-mail est désormais ${email}. Connectez-vous avec elle à partir de maintenant.`,
    open: "Ouvrir l'application",
    takenTitle: "Cette adresse est déjà prise",
    taken: "Un autre membre utilise maintenant cette adresse e-mail : la vôtre reste inchangée. Choisissez-en une autre dans votre profil.",
    invalidTitle: "Ce lien n'est pas valide",
    invalid:
      "Il a déjà servi, il a expiré, ou il a été coupé. Votre adresse reste inchangée : changez-la de nouveau depuis votre profil pour recevoir un nouveau lien.",
  },
};

// Light and dark, like the app; a phone's width first.
const CSS = `:root{color-scheme:light dark}body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1d2623;background:#f4f6f5;line-height:1.5}
h1{font-size:1.4rem}p{overflow-wrap:anywhere}button,a.button{display:inline-block;font-size:1rem;padding:.6rem 1.2rem;border-radius:.4rem;border:0;background:#1f6f5c;color:#fff;cursor:pointer;text-decoration:none}
@media (prefers-color-scheme:dark){body{color:#e6ece9;background:#111614}button,a.button{background:#7fcdb6;color:#111614}}`;

export function emailChangePageHtml(p: Page): string {
  const w = WORDS[p.language];
  let title = w.title;
  let body: string;
  switch (p.state) {
    case "ask":
      body = `<p>${e(w.ask(p.email))}</p>
<form method="post" action="${e(buildPath("confirmEmailChange"))}?token=${e(encodeURIComponent(p.token))}"><button type="submit">${e(w.button)}</button></form>`;
      break;
    case "done":
      title = w.doneTitle;
      body = `<p role="status">${e(w.done(p.email))}</p><p><a class="button" href="/profile">${e(w.open)}</a></p>`;
      break;
    case "taken":
      title = w.takenTitle;
      body = `<p>${e(w.taken)}</p>`;
      break;
    case "invalid":
      title = w.invalidTitle;
      body = `<p>${e(w.invalid)}</p>`;
      break;
  }
  return `<!doctype html><html lang="${p.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${e(title)}</title><style>${CSS}</style></head><body><h1>${e(title)}</h1>${body}</body></html>`;
}
