import { M, SM, formatAmount, memberSinceDate, type MemberLanguage, type NotificationKind } from "@mutua/domain";
import type { Mail } from "../platform/mail";

/**
 * A notification's words, e-mail and push, in the member's language (English and French, as the
 * app's catalogs): pure, so each text can be read and tested without a server.
 */

/** What a message says: the facts of its event, already resolved (services/notifications/notification-deliveries.ts). */
export interface NotificationFacts {
  kind: NotificationKind;
  to: string;
  firstName: string;
  language: MemberLanguage;
  /** The movement's amount in cents; null for a wallet's approval. */
  amount: bigint | null;
  symbol: string;
  currencyName: string;
  /** Who paid, credited, approved: a member's name, or the association's for its own wallets and doings. */
  counterparty: string;
  /**
   * When the counterparty joined (a NameHint's memberSince), when another member's name looks like
   * theirs: said beside the name, so that a look-alike is not taken for them (services/members/name-hints.ts).
   */
  counterpartySince?: string | null;
  /** The payer's memo for the member, if any. */
  memo: string;
  /** The title of the member's offer paid for (offer_paid). */
  offerTitle?: string | null;
  /** A standing order's run (standing_order): a reminder to pay, or a refusal with its reason and next try. */
  standingOrder?: { id: string; due: boolean; date: string; reason: string | null; retryDate: string | null } | null;
  /** Money received that is the member's own, given back: a payment across not made (said so, never as a payment to them). */
  returned?: boolean;
}

/**
 * Why a standing order's payment was refused, as the app says it (its catalogs' words for these
 * msgids): the refusals a payment of the member's can meet. Any other is said as the last.
 */
const REASONS: Record<MemberLanguage, Record<string, string>> = {
  "en-US": {
    [M.insufficientBalance]: M.insufficientBalance,
    [M.recipientLimit]: M.recipientLimit,
    [M.targetInactive]: M.targetInactive,
    [M.cannotSendToAccount]: M.cannotSendToAccount,
    [SM.accountFrozen]: SM.accountFrozen,
    [SM.payerInactive]: SM.payerInactive,
    [SM.payeeCannotReceive]: "The recipient cannot receive payments at the moment.",
    [M.transferUnexpected]: M.transferUnexpected,
    other: M.transferUnexpected,
  },
  "fr-FR": {
    [M.insufficientBalance]: "La transaction a été refusée pour solde insuffisant",
    [M.recipientLimit]: "Le destinataire ne peut pas recevoir autant de crédit mutuel. Veuillez réduire le montant.",
    [M.targetInactive]: "Le compte destinataire est inactif.",
    [M.cannotSendToAccount]: "Vous ne pouvez pas envoyer d'argent à ce compte.",
    [SM.accountFrozen]: "Ce compte est gelé.",
    [SM.payerInactive]: "Votre compte n'est pas actif : il ne peut pas envoyer d'argent.",
    [SM.payeeCannotReceive]: "Le destinataire ne peut pas recevoir de paiement pour le moment.",
    [M.transferUnexpected]: "Un problème inattendu est survenu pendant le virement. Veuillez nous excuser pour la gêne occasionnée.",
    other: "Un problème inattendu est survenu pendant le virement. Veuillez nous excuser pour la gêne occasionnée.",
  },
};

const day = (date: string, language: MemberLanguage) =>
  new Intl.DateTimeFormat(language, { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${date}T00:00:00Z`));

/** A standing order's lines after the subject: the reason it was refused, then when it is tried again (or that it is not). */
function standingOrderLines(f: PushFacts): string[] {
  const so = f.standingOrder;
  if (!so || so.due) return [];
  const reasons = REASONS[f.language];
  const reason = (so.reason && reasons[so.reason]) || reasons.other!;
  const fr = f.language === "fr-FR";
  const next = so.retryDate
    ? fr
      ? `Nouvel essai le ${day(so.retryDate, f.language)}.`
      : `It will be tried again on ${day(so.retryDate, f.language)}.`
    : fr
      ? "Ce paiement ne sera pas retenté."
      : "This payment will not be tried again.";
  return [reason.endsWith(".") ? reason : `${reason}.`, next];
}

interface Words {
  hello: (name: string) => string;
  /** A look-alike name's hint: the month, or the day, its member joined. */
  since: (date: string, day: boolean) => string;
  subject: Record<NotificationKind, (f: NotificationFacts, amount: string) => string>;
  memo: (memo: string) => string;
  open: (url: string) => string;
  why: string;
  stop: (what: string, url: string) => string;
  /** What the unsubscribe link stops, inside a sentence. */
  kinds: Record<NotificationKind, string>;
  /** A push notification's title: short, the news itself (the phone shows little more). */
  pushTitle: Record<NotificationKind, (f: PushFacts, amount: string) => string>;
  /** Its body's first line: who. */
  pushBody: Record<NotificationKind, (f: PushFacts, amount: string) => string>;
}

const WORDS: Record<MemberLanguage, Words> = {
  "en-US": {
    hello: (name) => `Hello ${name},`,
    since: (date) => `member since ${date}`,
    subject: {
      payment_received: (f, amount) =>
        f.returned ? `Your payment to ${f.counterparty} was not made: ${amount} returned` : `${f.counterparty} paid you ${amount}`,
      topup_credited: (f, amount) => `${f.counterparty} credited your account with ${amount}`,
      wallet_approved: (f) => `${f.counterparty} approved your ${f.currencyName} account`,
      reconversion_paid: (f, amount) => `${f.counterparty} paid your reconversion of ${amount}`,
      money_asked: (f, amount) => `${f.counterparty} asks you for ${amount}`,
      offer_paid: (f, amount) => `${f.counterparty} paid ${amount} for your offer “${f.offerTitle ?? ""}”`,
      dues_unpaid: (f, amount) => `Your dues of ${amount} are unpaid (${f.memo})`,
      standing_order: (f, amount) =>
        f.standingOrder?.due
          ? `Your standing order of ${amount} to ${f.counterparty} is due: pay it in the app`
          : `Your standing order of ${amount} to ${f.counterparty} was refused`,
    },
    memo: (memo) => `Memo: ${memo}`,
    open: (url) => `See it in your account: ${url}`,
    why: "You get this e-mail because you asked for it in your Preferences.",
    stop: (what, url) => `To stop e-mails about ${what}, open this link: ${url}`,
    kinds: {
      payment_received: "money received",
      topup_credited: "top-ups credited",
      wallet_approved: "accounts approved",
      reconversion_paid: "reconversions paid",
      money_asked: "requests for money",
      offer_paid: "payments for your offers",
      dues_unpaid: "unpaid dues",
      standing_order: "your standing orders",
    },
    pushTitle: {
      payment_received: (f, amount) => (f.returned ? `${amount} returned` : `Received ${amount}`),
      topup_credited: (_f, amount) => `Top-up of ${amount} credited`,
      wallet_approved: () => "Account approved",
      reconversion_paid: (_f, amount) => `Reconversion of ${amount} paid`,
      money_asked: (_f, amount) => `Asked for ${amount}`,
      offer_paid: (f, amount) => `${amount} for “${f.offerTitle ?? ""}”`,
      dues_unpaid: (_f, amount) => `Dues of ${amount} unpaid`,
      standing_order: (f, amount) => (f.standingOrder?.due ? `Standing order of ${amount} due` : `Standing order of ${amount} refused`),
    },
    pushBody: {
      payment_received: (f) => (f.returned ? `Your payment to ${f.counterparty} was not made` : `From ${f.counterparty}`),
      topup_credited: (f) => `By ${f.counterparty}`,
      wallet_approved: (f) => `${f.counterparty} approved your ${f.currencyName} account`,
      reconversion_paid: (f) => `By ${f.counterparty}`,
      money_asked: (f) => `By ${f.counterparty}: pay or decline in the app`,
      offer_paid: (f) => `Paid by ${f.counterparty}`,
      dues_unpaid: (f) => `${f.memo}: see Dues in the app`,
      standing_order: (f) => (f.standingOrder?.due ? `To ${f.counterparty}: pay it in the app` : [`To ${f.counterparty}`, ...standingOrderLines(f)].join("\n")),
    },
  },
  "fr-FR": {
    hello: (name) => `Bonjour ${name},`,
    since: (date, day) => (day ? `membre depuis le ${date}` : `membre depuis ${date}`),
    subject: {
      payment_received: (f, amount) =>
        f.returned ? `Votre paiement à ${f.counterparty} n'a pas été effectué : ${amount} restitués` : `${f.counterparty} vous a payé ${amount}`,
      topup_credited: (f, amount) => `${f.counterparty} a crédité votre compte de ${amount}`,
      wallet_approved: (f) => `${f.counterparty} a validé votre compte ${f.currencyName}`,
      reconversion_paid: (f, amount) => `${f.counterparty} a payé votre reconversion de ${amount}`,
      money_asked: (f, amount) => `${f.counterparty} vous demande ${amount}`,
      offer_paid: (f, amount) => `${f.counterparty} a payé ${amount} pour votre annonce « ${f.offerTitle ?? ""} »`,
      dues_unpaid: (f, amount) => `Votre cotisation de ${amount} est impayée (${f.memo})`,
      standing_order: (f, amount) =>
        f.standingOrder?.due
          ? `Votre ordre permanent de ${amount} à ${f.counterparty} est à payer : payez-le dans l'application`
          : `Le paiement de votre ordre permanent de ${amount} à ${f.counterparty} a été refusé`,
    },
    memo: (memo) => `Mémo : ${memo}`,
    open: (url) => `Voir dans votre compte : ${url}`,
    why: "Vous recevez cet e-mail parce que vous l'avez demandé dans vos Préférences.",
    stop: (what, url) => `Pour ne plus recevoir d'e-mails sur ${what}, ouvrez ce lien : ${url}`,
    kinds: {
      payment_received: "l'argent reçu",
      topup_credited: "les rechargements crédités",
      wallet_approved: "les comptes validés",
      reconversion_paid: "les reconversions payées",
      money_asked: "les demandes d'argent",
      offer_paid: "les paiements de vos annonces",
      dues_unpaid: "les cotisations impayées",
      standing_order: "vos ordres permanents",
    },
    pushTitle: {
      payment_received: (f, amount) => (f.returned ? `${amount} restitués` : `Vous avez reçu ${amount}`),
      topup_credited: (_f, amount) => `Rechargement de ${amount} crédité`,
      wallet_approved: () => "Compte validé",
      reconversion_paid: (_f, amount) => `Reconversion de ${amount} payée`,
      money_asked: (_f, amount) => `On vous demande ${amount}`,
      offer_paid: (f, amount) => `${amount} pour « ${f.offerTitle ?? ""} »`,
      dues_unpaid: (_f, amount) => `Cotisation de ${amount} impayée`,
      standing_order: (f, amount) => (f.standingOrder?.due ? `Ordre permanent de ${amount} à payer` : `Ordre permanent de ${amount} refusé`),
    },
    pushBody: {
      payment_received: (f) => (f.returned ? `Votre paiement à ${f.counterparty} n'a pas été effectué` : `De ${f.counterparty}`),
      topup_credited: (f) => `Par ${f.counterparty}`,
      wallet_approved: (f) => `${f.counterparty} a validé votre compte ${f.currencyName}`,
      reconversion_paid: (f) => `Par ${f.counterparty}`,
      money_asked: (f) => `Par ${f.counterparty} : payez ou refusez dans l'application`,
      offer_paid: (f) => `Payé par ${f.counterparty}`,
      dues_unpaid: (f) => `${f.memo} : voir Cotisations dans l'application`,
      standing_order: (f) =>
        f.standingOrder?.due ? `À ${f.counterparty} : payez-le dans l'application` : [`À ${f.counterparty}`, ...standingOrderLines(f)].join("\n"),
    },
  },
};

/** What a push says: the facts of an e-mail but its recipient's address and name (the device is theirs). */
export type PushFacts = Omit<NotificationFacts, "to" | "firstName">;

/**
 * The app's page a notification opens (the e-mail's link, the push's tap): a standing order's own
 * page, where it says what happens next (and, for a reminder, its Pay); else `otherwise`.
 */
export const notificationPage = (f: { standingOrder?: { id: string } | null }, otherwise: string): string =>
  f.standingOrder ? `/standing-orders/${f.standingOrder.id}` : otherwise;

/**
 * A Web Push payload, read by the app's service worker: what it shows, the app path a tap opens,
 * and the tag (the event's id) that keeps one notification per event on the device.
 */
export interface PushMessage {
  title: string;
  body: string;
  url: string;
  tag: string;
}

const amountText = (f: PushFacts) => (f.amount === null ? "" : `${formatAmount(f.amount, f.language)} ${f.symbol}`);

/** The facts with the counterparty's hint beside their name, when they have one: "Alice Martin (member since March 2024)". */
function hinted<F extends PushFacts>(f: F): F {
  if (!f.counterpartySince) return f;
  const { date, day } = memberSinceDate(f.counterpartySince, f.language);
  return { ...f, counterparty: `${f.counterparty} (${WORDS[f.language].since(date, day)})` };
}

export function notificationPush(facts: PushFacts, links: { url: string; tag: string }): PushMessage {
  const f = hinted(facts);
  const w = WORDS[f.language];
  const amount = amountText(f);
  const body = [w.pushBody[f.kind](f, amount), ...(f.memo ? [w.memo(f.memo)] : [])].join("\n");
  return { title: w.pushTitle[f.kind](f, amount), body, url: links.url, tag: links.tag };
}

/** What an unsubscribe link stops, in the member's language ("money received", "l'argent reçu"). */
export function kindWords(kind: NotificationKind, language: MemberLanguage): string {
  return WORDS[language].kinds[kind];
}

/**
 * The message, with RFC 8058's one-click unsubscribe headers: a mail client POSTs
 * `List-Unsubscribe=One-Click` to the link, which switches this kind off without a page.
 */
export function notificationMail(facts: NotificationFacts, links: { app: string; unsubscribe: string }): Mail {
  const f = hinted(facts);
  const w = WORDS[f.language];
  const amount = amountText(f);
  const subject = w.subject[f.kind](f, amount);
  const lines = [
    w.hello(f.firstName),
    "",
    `${subject}.`,
    ...standingOrderLines(f),
    ...(f.memo ? [w.memo(f.memo)] : []),
    "",
    w.open(links.app),
    "",
    "--",
    w.why,
    w.stop(w.kinds[f.kind], links.unsubscribe),
  ];
  return {
    to: f.to,
    subject,
    text: `${lines.join("\n")}\n`,
    headers: { "List-Unsubscribe": `<${links.unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
