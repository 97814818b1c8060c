import { z } from "zod";
import { M } from "../messages";
import { FIGURE_INTERVALS, LEDGER_CHECK_TRIGGERS, MOVEMENT_KINDS, WALLET_ROLES } from "../vocabulary";
import { AUDIT_KINDS } from "../audit";
import { AmountString, SignedAmountString } from "../platform/schemas";
import { FederationSettlement } from "../federation/settlement-schemas";

/** The board's contract: the audit log, the figures, the books and the ledger's health. */

/** An audit entry's id: a decimal integer, kept as text (the next page starts after it). */
export const AuditId = z.string().regex(/^\d{1,18}$/, M.invalidRequest);

/** One administrator action, as the audit log keeps it. */
export const AuditEntry = z.object({
  id: AuditId,
  at: z.string(),
  /** Who did it, a member; null for another association's server (then `actorAssociation`) or the server's operator (a command such as npm run import). */
  actor: z.string().nullable(),
  /** The linked association whose server did it (its step of a link: accepted, confirmed, terms changed), by the name the link holds; else null. */
  actorAssociation: z.string().nullable(),
  action: z.string(),
  subject: z.string(),
  /** What the subject is called: the member's name, or the name of the member the wallet, order or movement is of; null when unknown. */
  subjectName: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});

/** The audit log a page at a time, newest first, of every kind of action or of one (audit.ts AUDIT_KINDS). */
export const AuditQuery = z.object({
  /** The page after this one: entries older than this one. */
  before: AuditId.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  kind: z.enum(AUDIT_KINDS).optional(),
});

/** `next` is the `before` of the page after this one; null on the last page. */
export const AuditPage = z.object({ items: z.array(AuditEntry), next: AuditId.nullable() });

/** A calendar day, YYYY-MM-DD. */
export const IsoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, M.invalidRequest);

/**
 * The board's figures for a period: `from` and `to` are days, both included, in the time zone
 * `tz` (an IANA name: isTimeZone), which also decides where weeks and months begin.
 */
export const FiguresQuery = z.object({
  from: IsoDay,
  to: IsoDay,
  interval: z.enum(FIGURE_INTERVALS).default("month"),
  tz: z.string().min(1).max(64),
});

/** How many movements of a kind, and how much they moved. */
export const Flow = z.object({ count: z.number().int(), volume: AmountString });

/** Reconversions are what members sent back; retirements are those the association paid out (the reserve goes down by them). */
export const Flows = z.object({ payment: Flow, topup: Flow, reconversion: Flow, retirement: Flow });

/** One currency's figures, all from the ledger in one snapshot. */
export const CurrencyFigures = z.object({
  currencyId: z.string(),
  name: z.string(),
  symbol: z.string(),
  /** The sum of the members' balances at the end of the period (mutual credit sums to zero among them). */
  circulation: SignedAmountString,
  /** Top-ups credited (paid in national currency) less reconversions paid out, up to the end of the period. */
  reserve: SignedAmountString,
  /** reserve / circulation as a percentage with two decimals ("100.00"); null when nothing circulates. */
  coverage: z
    .string()
    .regex(/^-?\d+\.\d{2}$/)
    .nullable(),
  /** Mutual credit (currencies with mutual-credit accounts): what members owe, what they are owed, who is at a bound. */
  mutualCredit: z.object({ negative: SignedAmountString, positive: SignedAmountString, atFloor: z.number().int(), atCeiling: z.number().int() }).nullable(),
  /** Members with an active wallet in this currency at the end of the period. */
  membersWithWallet: z.number().int(),
  /** Members who paid or were paid in the 30 days before the end of the period. */
  activeMembers: z.number().int(),
  /** The period's movements by kind; the series' buckets add up to these. */
  totals: Flows,
  /**
   * Dues (services/association/dues*.ts): those collected in the period, and those unpaid now
   * (arrears: members short of money, and device-signed wallets whose owner has not paid yet).
   */
  dues: z.object({ collected: Flow, arrears: z.object({ count: z.number().int(), amount: AmountString }) }),
  /** One bucket per week or month of the period (`start` is its first day, maybe before `from`), oldest first. */
  series: z.array(Flows.extend({ start: IsoDay })),
});

/**
 * The trade balance with one linked association (docs/federation.md "Clearing wallets and the
 * trade balance"), as it stands now, whatever the period: what this side holds of the other's
 * currency against the most it agreed to hold, and what it owes the other in its own.
 */
export const TradeBalance = z.object({
  linkId: z.string(),
  /** The other association's name. */
  association: z.string(),
  /** What this side holds of the other's currency, net, in it (below zero: what the other holds of this side's beyond). */
  held: SignedAmountString,
  /** The most of the other's currency this side holds: a payment in that would take `held` past it is refused. */
  trustLimit: AmountString,
  /** The other's currency symbol, which `held` and `trustLimit` are in. */
  currencySymbol: z.string(),
  /** What this side's clearing wallets for the link owe the other, in this side's currency (below zero: what the other owes). */
  owed: SignedAmountString,
  /** This side's currency symbol, which `owed` is in. */
  ownCurrencySymbol: z.string(),
  /** Payments across are on at this end, and at the other's as it last said. */
  enabled: z.boolean(),
  peerEnabled: z.boolean(),
  /**
   * When the link was ended (by the owners of either side), null while it is active. An ended link
   * is listed while something is still owed on it either way: its balance stays for the boards
   * to settle, and no payment crosses it any more.
   */
  endedAt: z.string().nullable(),
  /**
   * Payments in doubt the owners of the payer's side ended (docs/federation.md "Payments in
   * doubt"), newest first: the member refunded there; the payee's side told (`waiting` until it
   * answered), agreeing, or in conflict (it had paid its member: the two balances differ by the
   * payment until the boards settle it).
   */
  endings: z.array(
    z.object({
      paymentId: z.string(),
      /** out: our member paid and was refunded; in: their member paid ours. */
      direction: z.enum(["out", "in"]),
      /** In this side's currency, and in the other's. */
      amount: AmountString,
      peerAmount: AmountString,
      at: z.string(),
      days: z.number().int().min(0),
      outcome: z.enum(["waiting", "agreed", "conflict"]),
    }),
  ),
  /**
   * The settlements of the link (docs/federation.md "Settlement"), newest first: proposed by
   * either side, with both amounts, which way, and where each stands (accepted: posted here).
   */
  settlements: z.array(FederationSettlement),
});

export const Figures = z.object({
  from: IsoDay,
  to: IsoDay,
  interval: z.enum(FIGURE_INTERVALS),
  /** The instant the stock figures (circulation, reserve...) stand at: the end of the period, or now if that is later. */
  asOf: z.string(),
  currencies: z.array(CurrencyFigures),
  /** One entry per active link with another association, now (not at the end of the period); empty without links. */
  trade: z.array(TradeBalance),
});

/** The books of a period: every movement from the start of `from` to the end of `to` in `tz`. */
export const BooksQuery = z.object({
  from: IsoDay,
  to: IsoDay,
  tz: z.string().min(1).max(64),
  /** Which file the books are taken out for (books.ts BooksFile), recorded in the audit log. */
  file: z.enum(["movements", "statements"]).optional(),
});

/** One side of a movement in the books: whose wallet, and its balance (all its accounts) just after. */
export const BookParty = z.object({
  walletId: z.string(),
  /**
   * The member's name; for a clearing wallet, the other association's member of a payment across
   * and their association ("Alice Martin (Association A)"); null for the association's own
   * wallets (`role` says which).
   */
  name: z.string().nullable(),
  role: z.enum(WALLET_ROLES),
  balanceAfter: SignedAmountString,
});

export const BookMovement = z.object({
  reference: z.string(),
  kind: z.enum(MOVEMENT_KINDS),
  /** The instant, and the same as a wall-clock "YYYY-MM-DD HH:MM:SS" in `tz` (what a spreadsheet reads as a date). */
  date: z.string(),
  localDate: z.string(),
  currency: z.string(),
  currencyName: z.string(),
  amount: AmountString,
  senderMemo: z.string(),
  recipientMemo: z.string(),
  payer: BookParty,
  payee: BookParty,
  /**
   * A payment across a link (its hold, or the hold returned): the other association, the amount
   * in its currency, and one unit of its currency in this one's as both counted it, at most 4
   * decimals. Null for every other movement.
   */
  crossing: z.object({ association: z.string(), amount: AmountString, currencySymbol: z.string(), rate: z.string() }).nullable(),
  /** An imported movement's reference in the old system's books (its transaction number), so that an accountant matches the two; null otherwise. */
  oldReference: z.string().nullable(),
});

export const Books = z.object({ from: IsoDay, to: IsoDay, tz: z.string(), movements: z.array(BookMovement) });

/** The last run of the ledger's invariant checks: when, what it found (nothing when all is well), and who asked. */
export const LedgerCheck = z.object({
  at: z.string(),
  violations: z.array(z.string()),
  trigger: z.enum(LEDGER_CHECK_TRIGGERS),
  /** The member who asked for it, for a check on demand. */
  requestedBy: z.string().nullable(),
});

/**
 * How many members hold each validation right (`both`: the administrators), so the console and
 * the board can say when one holds it alone: their own wallets, top-ups and reconversions need
 * another administrator (separation of duties), and there is none.
 */
export const RightHolders = z.object({ accounts: z.number().int(), credits: z.number().int(), both: z.number().int() });

export const LedgerHealth = z.object({ last: LedgerCheck.nullable(), everyMinutes: z.number().int(), rightHolders: RightHolders });
