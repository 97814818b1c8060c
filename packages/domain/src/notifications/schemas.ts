import { z } from "zod";
import { M } from "../messages";
import { EVENT_KINDS, MEMBER_LANGUAGES, NOTIFICATION_KINDS } from "../vocabulary";
import { AmountString, PaymentRequestId } from "../platform/schemas";
import { ReconversionStatus } from "../ledger/schemas";

/** The notifications' contract: a member's events, the bell, e-mail preferences, push subscriptions and the unsubscribe link. */

/** An event's id: a decimal integer, kept as text (it is the stream's `Last-Event-ID`). */
export const EventId = z.string().regex(/^\d{1,18}$/, M.invalidRequest);

/** Something that happened to the member (docs/architecture.md "Live money"). */
export const MemberEvent = z.object({
  id: EventId,
  kind: z.enum(EVENT_KINDS),
  date: z.string(),
  /** The member's account it concerns (for cashier_invited, the till's), and its currency's symbol. */
  walletId: z.string(),
  currency: z.string(),
  /** The movement's amount, unsigned; null for a wallet's approval or discarding. */
  amount: AmountString.nullable(),
  /** Who paid the member or was paid (a name, or the association's), or whose till they are invited to; null when nobody else is concerned. */
  counterparty: z.string().nullable(),
  /** The movement's id, for its receipt (the reconversion's, for a reconversion_stage). */
  transactionId: z.string().nullable(),
  /** A reconversion's new stage. */
  stage: ReconversionStatus.nullable(),
  /** The ask for money it is about (money_asked, ask_declined, ask_cancelled), for its Pay. */
  requestId: PaymentRequestId.nullable(),
  /** The marketplace's offer it is about (offer_paid): its id and title. */
  offer: z.object({ id: z.string(), title: z.string() }).nullable(),
  /**
   * The standing order it is about (standing_order_refused, standing_order_due): its id, whether it
   * is a reminder to pay, why it was refused (a msgid) and when it is tried again (null: not).
   */
  standingOrder: z.object({ id: z.string(), due: z.boolean(), reason: z.string().nullable(), retryDate: z.string().nullable() }).nullable(),
  /**
   * A payment_received that gives the member back their own money: a payment to a member of a
   * linked association the other side did not make (or the owners ended), whose hold is returned.
   * Said as a payment not made, never as money paid to them.
   */
  returned: z.boolean(),
  read: z.boolean(),
});

export const EventsQuery = z.object({
  /** Resume after this event, for a stream opened anew (an EventSource reconnecting sends Last-Event-ID instead). */
  after: EventId.optional(),
});

export const NotificationsQuery = z.object({
  /** The page after this one: events older than this id. */
  before: EventId.optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

export const NotificationPage = z.object({
  items: z.array(MemberEvent),
  next: z.string().nullable(),
  /** How many notifications the member has not read, all pages together. */
  unread: z.number().int(),
});

export const MarkReadBody = z.object({ ids: z.array(EventId).min(1).max(100) });

/** Which notifications the member gets by e-mail, and the language the server writes to them in. */
export const NotificationSettings = z.object({
  /** null: the association's default language. */
  language: z.enum(MEMBER_LANGUAGES).nullable(),
  email: z.record(z.enum(NOTIFICATION_KINDS), z.boolean()),
});

/** What to change; what is left out stays as it is (the language switch sends only the language). */
export const NotificationSettingsBody = z.object({
  language: z.enum(MEMBER_LANGUAGES).nullable().optional(),
  email: z.partialRecord(z.enum(NOTIFICATION_KINDS), z.boolean()).optional(),
});

/** The server's VAPID public key (base64url, uncompressed P-256 point): a device subscribes with it. */
export const PushKey = z.object({ publicKey: z.string() });

/**
 * A device's push subscription, as the browser's PushSubscription.toJSON() gives it: where to send
 * (the push service's https URL) and the keys to encrypt for (RFC 8291, base64url).
 */
export const PushSubscriptionBody = z.object({
  endpoint: z.string().url().max(2048),
  keys: z.object({
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{80,100}$/, M.invalidRequest),
    auth: z.string().regex(/^[A-Za-z0-9_-]{16,32}$/, M.invalidRequest),
  }),
});

export const PushEndpointBody = z.object({ endpoint: z.string().url().max(2048) });

/** An unsubscribe link's signed token: the member, the kind and their signature (services/notifications/unsubscribe-tokens.ts). */
export const UnsubscribeQuery = z.object({ token: z.string().min(1).max(200) });
