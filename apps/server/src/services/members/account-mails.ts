import type { MemberLanguage } from "@mutua/domain";

/** A right an owner gives (grant-rights.ts's MemberRights). */
type Right = "accounts" | "credits" | "board" | "owner";

/** Which sign-in was added or removed, when, and where the member reviews them. */
interface CredentialFacts {
  what: "passkey" | "device";
  name: string;
  at: Date;
  publicUrl: string;
}

/**
 * The mails about a member's own account (their address, their password, their rights, the first
 * administrator's welcome), in the language they read the app in: each one's facts, then its words
 * in English and in French, as the notification mails are (notifications/notification-mail.ts).
 */
export type AccountMail =
  /** At sign-up: the link that proves the address (email-confirmation.ts). */
  | { kind: "emailConfirmation"; link: string }
  /** To the new address: the link that confirms it. */
  | { kind: "emailChangeLink"; oldEmail: string; hours: number; link: string }
  /** To the old address, once changed: who did not make the change can act. */
  | { kind: "emailChanged"; newEmail: string }
  /** The link that chooses a new password. */
  | { kind: "passwordReset"; minutes: number; link: string }
  /** The password was changed: from the app (other sessions ended), or by a reset link (every session and device sign-in ended, the passkeys too when an import's wallets were released). */
  | { kind: "passwordChanged"; how: "fromApp" | "byLink" | "byLinkPasskeysGone"; publicUrl: string }
  /** An owner changed the member's rights: the ones they hold now (grant-rights.ts). */
  | { kind: "rightsChanged"; held: Right[] }
  /** A passkey or a device sign-in was added to the member's account, or removed from it (credentials.ts). */
  | ({ kind: "credentialAdded" } & CredentialFacts)
  | ({ kind: "credentialRemoved" } & CredentialFacts)
  /** The association's first administrator, once it is set up: the link to choose their password (association/setup.ts). */
  | { kind: "welcome"; association: string; days: number; link: string; publicUrl: string; email: string };

type Words = {
  hello: (name: string) => string;
  /** When a sign-in was added or removed, in UTC (the server knows no member's time zone). */
  when: (at: Date) => string;
  /** "A passkey (Pixel 8)", "Une clé d'accès (Pixel 8)". */
  credential: (what: "passkey" | "device", name: string) => string;
  /** What the member can do with each right, one line of the rights mail. */
  rights: Record<Right, string>;
} & {
  [K in AccountMail["kind"]]: (m: Extract<AccountMail, { kind: K }>, w: Words) => { subject: string; body: string };
};

const named = (name: string) => (name ? ` (${name})` : "");

const WORDS: Record<MemberLanguage, Words> = {
  "en-US": {
    hello: (name) => `Hello ${name},`,
    when: (at) => `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`,
    credential: (what, name) => `${what === "passkey" ? "A passkey" : "A device sign-in"}${named(name)}`,
    credentialAdded: (m, w) => ({
      subject: "A new sign-in was added to your account",
      body:
        `${w.credential(m.what, m.name)} was added to your account on ${w.when(m.at)}. It signs in without your password.\n\n` +
        `If it was not you, remove it at once in Preferences (${m.publicUrl}/preferences) and change your password.\n`,
    }),
    credentialRemoved: (m, w) => ({
      subject: "A sign-in was removed from your account",
      body:
        `${w.credential(m.what, m.name)} was removed from your account on ${w.when(m.at)}: it can no longer sign in.\n\n` +
        `If it was not you, change your password (${m.publicUrl}/reset-password).\n`,
    }),
    rights: {
      accounts: "approve wallets and help members (account validation)",
      credits: "credit top-ups (credit validation)",
      board: "read the figures, the books and the ledger's health (board)",
      owner: "manage the association and its members' rights (owner)",
    },
    emailConfirmation: (m) => ({
      subject: "Confirm your e-mail address",
      body:
        `Someone (hopefully you) signed up with this address. Open this link within two days to confirm it:\n\n${m.link}\n\n` +
        `Then sign in with the password you chose. If you did not sign up, ignore this message: nobody can use the account.\n`,
    }),
    emailChangeLink: (m) => ({
      subject: "Confirm your new e-mail address",
      body:
        `You asked to use this address for your account instead of ${m.oldEmail}.\n` +
        `Open this link within ${m.hours} hours and confirm to make the change:\n\n${m.link}\n\n` +
        `If you did not ask for it, ignore this message: nothing changes.\n`,
    }),
    emailChanged: (m) => ({
      subject: "Your e-mail address was changed",
      body:
        `The e-mail address of your account was changed to ${m.newEmail}: from now on you sign in with it, and our messages go there.\n\n` +
        `If you did not make this change, contact your association at once.\n`,
    }),
    passwordReset: (m) => ({
      subject: "Choose a new password",
      body:
        `Someone (hopefully you) asked to reset the password of your account.\n` +
        `Open this link within ${m.minutes} minutes to choose a new password:\n\n${m.link}\n\n` +
        `If you did not ask for it, ignore this message: your password stays as it is.\n`,
    }),
    passwordChanged: (m) => ({
      subject: "Your password was changed",
      body:
        {
          fromApp:
            `The password of your account was changed from the app. Every other session was signed out.\n` +
            `Passkeys and device sign-ins stay: review them in Preferences (${m.publicUrl}/preferences) and remove any you do not recognise.`,
          byLink:
            `The password of your account was changed. Every session was signed out and every device sign-in removed.\n` +
            `Passkeys stay: review them in Preferences (${m.publicUrl}/preferences) and remove any you do not recognise.`,
          byLinkPasskeysGone:
            `The password of your account was changed. Every session was signed out and every device sign-in removed.\n` +
            `Its passkeys were removed too, with the balance your association brought you, which is now yours: add one again in Preferences (${m.publicUrl}/preferences) if you wish.`,
        }[m.how] + `\n\nIf you did not change it, ask for a new password at once: ${m.publicUrl}/reset-password\n`,
    }),
    rightsChanged: (m, w) => ({
      subject: "Your rights in the association changed",
      body:
        `An owner of the association changed your rights. You can now:\n` +
        (m.held.length > 0 ? m.held.map((k) => `- ${w.rights[k]}`).join("\n") : "- none: you use the association's wallet like every member") +
        `\n\nIf this surprises you, answer this e-mail or contact the association.`,
    }),
    welcome: (m) => ({
      subject: `${m.association} is ready on Mutua: choose your password`,
      body:
        `${m.association} is set up on Mutua, and you are its first administrator: you hold every right,\n` +
        `and you hand them out to others from a member's page.\n\n` +
        `Open this link within ${m.days} days to choose your password (it works once):\n\n${m.link}\n\n` +
        `Then sign in at ${m.publicUrl} with ${m.email}.\n`,
    }),
  },
  "fr-FR": {
    hello: (name) => `Bonjour ${name},`,
    when: (at) => `${new Intl.DateTimeFormat("fr-FR", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(at)} UTC`,
    credential: (what, name) => `${what === "passkey" ? "Une clé d'accès" : "Une connexion par appareil"}${named(name)}`,
    credentialAdded: (m, w) => ({
      subject: "Une nouvelle connexion a été ajoutée à votre compte",
      body:
        `${w.credential(m.what, m.name)} a été ajoutée à votre compte le ${w.when(m.at)}. Elle permet de se connecter sans votre mot de passe.\n\n` +
        `Si ce n'était pas vous, supprimez-la tout de suite dans Préférences (${m.publicUrl}/preferences) et changez votre mot de passe.\n`,
    }),
    credentialRemoved: (m, w) => ({
      subject: "Une connexion a été retirée de votre compte",
      body:
        `${w.credential(m.what, m.name)} a été retirée de votre compte le ${w.when(m.at)} : elle ne permet plus de se connecter.\n\n` +
        `Si ce n'était pas vous, changez votre mot de passe (${m.publicUrl}/reset-password).\n`,
    }),
    rights: {
      accounts: "approuver les portefeuilles et aider les membres (validation des comptes)",
      credits: "créditer les rechargements (validation des crédits)",
      board: "consulter les chiffres, la comptabilité et la santé du grand livre (bureau)",
      owner: "gérer l'association et les droits de ses membres (propriétaire)",
    },
    emailConfirmation: (m) => ({
      subject: "Confirmez votre adresse e-mail",
      body:
        `Quelqu'un (vous, espérons-le) s'est inscrit avec cette adresse. Ouvrez ce lien dans les deux jours pour la confirmer :\n\n${m.link}\n\n` +
        `Connectez-vous ensuite avec le mot de passe que vous avez choisi. Si vous ne vous êtes pas inscrit, ignorez ce message : personne ne peut utiliser le compte.\n`,
    }),
    emailChangeLink: (m) => ({
      subject: "Confirmez votre nouvelle adresse e-mail",
      body:
        `Vous avez demandé à utiliser cette adresse pour votre compte à la place de ${m.oldEmail}.\n` +
        `Ouvrez ce lien dans les ${m.hours} heures et confirmez pour faire le changement :\n\n${m.link}\n\n` +
        `Si vous ne l'avez pas demandé, ignorez ce message : rien ne change.\n`,
    }),
    emailChanged: (m) => ({
      subject: "Votre adresse e-mail a été changée",
      body:
        `L'adresse e-mail de votre compte est désormais ${m.newEmail} : vous vous connectez avec elle, et nos messages y arrivent.\n\n` +
        `Si vous n'avez pas fait ce changement, contactez votre association sans attendre.\n`,
    }),
    passwordReset: (m) => ({
      subject: "Choisissez un nouveau mot de passe",
      body:
        `Quelqu'un (vous, espérons-le) a demandé à réinitialiser le mot de passe de votre compte.\n` +
        `Ouvrez ce lien dans les ${m.minutes} minutes pour choisir un nouveau mot de passe :\n\n${m.link}\n\n` +
        `Si vous ne l'avez pas demandé, ignorez ce message : votre mot de passe reste le même.\n`,
    }),
    passwordChanged: (m) => ({
      subject: "Votre mot de passe a été changé",
      body:
        {
          fromApp:
            `Le mot de passe de votre compte a été changé depuis l'application. Toutes vos autres sessions ont été fermées.\n` +
            `Les clés d'accès et les connexions d'appareils restent : vérifiez-les dans les Préférences (${m.publicUrl}/preferences) et retirez celles que vous ne reconnaissez pas.`,
          byLink:
            `Le mot de passe de votre compte a été changé. Toutes vos sessions ont été fermées et toutes les connexions d'appareils retirées.\n` +
            `Les clés d'accès restent : vérifiez-les dans les Préférences (${m.publicUrl}/preferences) et retirez celles que vous ne reconnaissez pas.`,
          byLinkPasskeysGone:
            `Le mot de passe de votre compte a été changé. Toutes vos sessions ont été fermées et toutes les connexions d'appareils retirées.\n` +
            `Ses clés d'accès ont été retirées aussi, avec le solde que votre association vous a apporté, qui est désormais à vous : ajoutez-en une dans les Préférences (${m.publicUrl}/preferences) si vous le souhaitez.`,
        }[m.how] + `\n\nSi vous ne l'avez pas changé, demandez un nouveau mot de passe sans attendre : ${m.publicUrl}/reset-password\n`,
    }),
    rightsChanged: (m, w) => ({
      subject: "Vos droits dans l'association ont changé",
      body:
        `Un propriétaire de l'association a changé vos droits. Vous pouvez désormais :\n` +
        (m.held.length > 0
          ? m.held.map((k) => `- ${w.rights[k]}`).join("\n")
          : "- rien de particulier : vous utilisez le portefeuille de l'association comme tous les membres") +
        `\n\nSi cela vous surprend, répondez à cet e-mail ou contactez l'association.`,
    }),
    welcome: (m) => ({
      subject: `${m.association} est sur Mutua : choisissez votre mot de passe`,
      body:
        `${m.association} est en place sur Mutua, et vous en êtes le premier administrateur : vous avez tous les droits,\n` +
        `et vous les confiez à d'autres depuis la fiche d'un membre.\n\n` +
        `Ouvrez ce lien dans les ${m.days} jours pour choisir votre mot de passe (il ne sert qu'une fois) :\n\n${m.link}\n\n` +
        `Puis connectez-vous sur ${m.publicUrl} avec ${m.email}.\n`,
    }),
  },
};

/** The mail `m` to `to`, who is called `firstName`, in `language`. */
export function accountMail(language: MemberLanguage, to: string, firstName: string, m: AccountMail): { to: string; subject: string; text: string } {
  const w = WORDS[language];
  const { subject, body } = (w[m.kind] as (m: AccountMail, w: Words) => { subject: string; body: string })(m, w);
  return { to, subject, text: `${w.hello(firstName)}\n\n${body}` };
}
