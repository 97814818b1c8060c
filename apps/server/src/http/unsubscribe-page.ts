import type { MemberLanguage, NotificationKind } from "@mutua/domain";
import { kindWords } from "../services/notifications/notification-mail";
import { escapeHtml as e } from "./html";

/** The unsubscribe link's page, in the member's language: plain HTML, every value escaped. */

type Page =
  | { state: "ask"; kind: NotificationKind; language: MemberLanguage; token: string }
  | { state: "off" | "done"; kind: NotificationKind; language: MemberLanguage }
  | { state: "invalid"; language: MemberLanguage };

interface Words {
  title: string;
  ask: (what: string) => string;
  button: string;
  off: (what: string) => string;
  done: (what: string) => string;
  invalidTitle: string;
  invalid: string;
}

const WORDS: Record<MemberLanguage, Words> = {
  "en-US": {
    title: "E-mail notifications",
    ask: (what) => `You get e-mails about ${what}. Press the button to stop them.`,
    button: "Stop these e-mails",
    off: (what) => `You no longer get e-mails about ${what}. You can switch them on again in the app's Preferences.`,
    done: (what) => `Done: you will no longer get e-mails about ${what}. You can switch them on again in the app's Preferences.`,
    invalidTitle: "This link is not valid",
    invalid: "It may have been cut or changed. Open the link of the e-mail again, or change your e-mail notifications in the app's Preferences.",
  },
  "fr-FR": {
    title: "Notifications par e-mail",
    ask: (what) => `Vous recevez des e-mails sur ${what}. Appuyez sur le bouton pour ne plus les recevoir.`,
    button: "Ne plus recevoir ces e-mails",
    off: (what) => `Vous ne recevez plus d'e-mails sur ${what}. Vous pouvez les réactiver dans les Préférences de l'application.`,
    done: (what) => `C'est fait : vous ne recevrez plus d'e-mails sur ${what}. Vous pouvez les réactiver dans les Préférences de l'application.`,
    invalidTitle: "Ce lien n'est pas valide",
    invalid:
      "Il a peut-être été coupé ou modifié. Ouvrez à nouveau le lien de l'e-mail, ou changez vos notifications par e-mail dans les Préférences de l'application.",
  },
};

const CSS = `body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#222;line-height:1.5}
h1{font-size:1.4rem}button{font-size:1rem;padding:.6rem 1.2rem;border-radius:.4rem;border:0;background:#1d6f42;color:#fff;cursor:pointer}`;

export function unsubscribePageHtml(p: Page): string {
  const w = WORDS[p.language];
  let title = w.title;
  let body: string;
  if (p.state === "invalid") {
    title = w.invalidTitle;
    body = `<p>${e(w.invalid)}</p>`;
  } else {
    const what = kindWords(p.kind, p.language);
    body =
      p.state === "ask"
        ? `<p>${e(w.ask(what))}</p>
<form method="post" action="/api/unsubscribe?token=${e(encodeURIComponent(p.token))}"><button type="submit">${e(w.button)}</button></form>`
        : `<p role="status">${e(p.state === "done" ? w.done(what) : w.off(what))}</p>`;
  }
  return `<!doctype html><html lang="${p.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${e(title)}</title><style>${CSS}</style></head><body><h1>${e(title)}</h1>${body}</body></html>`;
}
