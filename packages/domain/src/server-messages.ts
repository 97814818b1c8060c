import { FEDERATION_RATE_CHANGED } from "./federation";
import { M } from "./messages";

/**
 * Texts only the server words: its refusals, which the apps show as they come (translated through
 * their catalogs, whose test requires these too) and never name. Kept out of `M`, which the web
 * app bundles whole, so that its pages do not carry them (docs/performance.md). Like `M`'s, they
 * are msgids: change one only with the catalogs.
 */
export const SM = {
  userExists: "User or email already exist.",
  unknownUser: "Unknown user or email. Please make sure to provide a valid username or email.",
  rateLimited: "Too many attempts. Please wait {minutes, plural, one {# minute} other {# minutes}} and try again.",
  resetTokenInvalid: "This password reset link is invalid or has expired. Please ask for a new one.",
  emailUnconfirmed: "Please confirm your e-mail address first: open the link we sent you, then sign in again.",
  confirmationTokenInvalid: "This confirmation link is invalid or has expired. Sign in to get a new one.",
  signupDisabled: "Sign-up is not available on this server.",
  resetDisabled: "Password reset is not available on this server.",
  loginRequired: "Your session has ended. Please sign in again.",
  payerInactive: "Your account is not active: it cannot send money.",
  accountFrozen: "This account is frozen.",
  payeeCannotReceive: "{name} cannot receive payments at the moment.",
  tillFrozen: "This account is frozen: it cannot receive payments until the association unfreezes it.",
  paymentRequestPaid: "This request has already been paid.",
  paymentRequestExpired: "This payment request has expired.",
  paymentRequestCancelled: "This payment request was cancelled.",
  paymentRequestNotFound: "Payment request not found.",
  businessCategoryUnknown: "This category is not in the association's list.",
  businessBackendUnknown: "The association has no such currency.",
  businessDecided: "This business profile has already been approved or discarded.",
  cashierOnly: "As a cashier of this account you can take payments into it and see its sales, nothing else.",
  cashierInvitationGone: "This invitation no longer stands: it was withdrawn or has expired.",
  cashierSelf: "You already run this account's till.",
  cashierTooMany: "This account already has {max} cashiers: remove one first.",
  paymentRequestMismatch: "This payment does not match the request: pay its exact amount to its recipient.",
  paymentRequestMemoMismatch: "This payment does not match the request: its memo for the recipient must be the request's.",
  paymentRequestsTooMany: "Too many open payment requests: cancel one first.",
  askSelf: "You cannot ask yourself for money.",
  askTwice: "Each member can be asked only once in one request.",
  askCannot: "This member cannot be asked for money.",
  askPairFull: "{name} already has {max} of your requests to answer: wait for an answer before asking again.",
  askMemberFull: "{name} has too many requests to answer: try again later.",
  askNotBlockable: "This member never asked you for money.",
  askDeclined: "This request was declined.",
  recipientLookupFailed: "An unexpected issue occurred while performing recipient lookup...",
  topUpNotAllowed: "Top-ups are not available for this account.",
  topUpTooManyOpen: "Too many top-up requests are waiting to be paid or credited. Please wait until the association has handled them.",
  topUpsDisabled: "Top-ups are not available in this association.",
  reconversionsDisabled: "Reconversions are not available in this association.",
  requestAlreadyHandled: "This request has already been handled and can no longer be changed.",
  reconversionStageOrder: "A reconversion moves forward one stage at a time: sent, received, invoiced, then paid.",
  limitsRefused:
    "These limits would put the account's current balance outside them: the floor must be at most 0, the ceiling at least 0, and the balance between them.",
  walletOfAnotherMember: "This wallet is already registered to another member.",
  walletNotSigned: "This wallet was not signed with its own key.",
  reauthRequired: "Please confirm your password to continue.",
  wrongPassword: "Wrong password. Please try again.",
  pushServiceUnsupported: "This push service is not supported.",
  booksTooLong: "This period has more than {max} movements: choose a shorter one.",
  periodInvalid: "Choose a period that starts before it ends and lasts ten years at most.",
  // Separation of duties: an administrator's rights are for other members' wallets and orders.
  ownWalletApproval: "Another administrator must do this: you cannot approve your own wallet.",
  ownTopUp: "Another administrator must do this: you cannot mark paid or credit your own top-up.",
  ownFreeze: "Another administrator must do this: you cannot freeze or unfreeze your own wallet.",
  ownLimits: "Another administrator must do this: you cannot change your own wallet's limits.",
  ownReconversion: "Another administrator must do this: you cannot process your own reconversion.",
  ownRights: "Another owner must do this: you cannot change your own rights.",
  // The association's settings (its owners' screen).
  settingsChangedMeanwhile: "Someone else saved the settings meanwhile: they are shown again, make your changes again.",
  floorAboveZero: "The floor is 0 or below.",
  topUpMinAboveZero: "A top-up amount is above 0.",
  topUpBoundsOrder: "The top-up maximum is at least the minimum.",
  ceilingBelowFloor: "The ceiling is at least the floor.",
  ibanNeeded: "Top-ups are paid by transfer: the IBAN is needed.",
  ibanInvalid: "This IBAN is not valid (its check digits do not match).",
  bicInvalid: "This BIC is not valid (8 or 11 letters and digits).",
  symbolInvalid: "The symbol is 1 to 8 characters, without spaces.",
  linkInvalid: "A link starts with https:// (or / for a page of this server).",
  logoInvalid: "The logo must be a PNG or SVG image of at most 100 KB.",
  logoTooManyPixels: "The logo is at most {side} × {side} pixels: make it smaller and upload it again.",
  logoNestedTooDeep: "This SVG nests its elements more than {max} levels deep, more than a logo needs: ungroup it and upload it again.",
  logoTooSlow: "This SVG could not be checked in time: simplify it, or upload the logo as a PNG.",
  // The member's own profile: photo, e-mail address, password.
  photoType: "The photo must be a JPEG, WebP or PNG image.",
  photoTooLarge: "The photo is too large: at most {max} KB.",
  emailUnchanged: "This is already your e-mail address.",
  emailTakenByAnother: "Another member already uses this e-mail address.",
  mailNotSent: "The e-mail could not be sent. Please try again in a few minutes.",
  importPartUnexpected: "This part of the file was not expected: choose the file again to upload it from its start.",
  importFileTooLarge: "The file is too large: at most 200 MB can be imported at once.",
  importUploadGone: "This file is no longer here (uploaded files are kept a day): choose it again.",
  importMembersFileTooLarge: "The members file is too large: at most 20 MB can be imported at once.",
  importRunning: "An import is already running for this association: wait until it is done, then try again.",
  // Links between associations' servers (docs/federation.md).
  federationNotSetUp: "This association is not set up yet: it cannot be linked with another.",
  federationCodeInvalid: "This invitation code is not valid: please copy it again, whole.",
  federationInsecureUrl: "Another association's server must be reached over HTTPS.",
  federationInvitationGone: "This invitation was already used or withdrawn: ask the other association for a new one.",
  federationFingerprintMismatch: "The server at this address does not hold the key the invitation names: nothing was linked.",
  federationSelf: "This invitation comes from this association's own server.",
  federationAlreadyLinked: "This association is already linked with that one.",
  federationLinkNotFound: "This link does not exist.",
  federationLinkState: "This link is not waiting for that any more: reload the page.",
  databaseUnavailable: "The server cannot reach its database right now. Try again in a moment.",
  federationPeerUnreachable: "The other association's server did not answer. Please try again later.",
  federationNoServer: "No association's server answered at this address: nothing was linked. Please try again later.",
  federationPeerUnverifiable: "The other association's server answered something this server cannot verify: nothing was changed.",
  federationPeerRefused: "The other association's server refused this: nothing was changed.",
  federationPeerName: "The other association's server sent a name that is not allowed here (too long, or with hidden characters): nothing was changed.",
  federationSignatureRefused: "This message's signature was refused.",
  federationNotLinked: "This association is not linked with yours: its members cannot be paid from here.",
  federationLinkOff: "Payments between these two associations are switched off.",
  federationRatesDiffer: "The two associations count different rates: no payment can cross until they agree.",
  federationRateChanged: FEDERATION_RATE_CHANGED,
  federationPayeeUnknown: "This recipient does not exist in the other association.",
  federationTrustLimit: "This payment would take the balance between the two associations past the limit their boards set.",
  federationPaymentRefused: "The other association refused this payment: nothing was paid.",
  // A payment in doubt ended by the owners (services/federation/doubt.ts).
  federationPaymentNotFound: "This payment across does not exist.",
  federationPaymentKnown: "This payment's outcome is known: only a payment still in doubt can be ended.",
  federationPaymentAlreadyEnded: "This payment was already ended.",
  federationPaymentTooRecent: "A payment in doubt can be ended only once the other association has not answered it for the days this server waits: {days}.",
  // Links ended, linked again, moved (services/federation/link-ending.ts, address-change.ts).
  federationLinkEnded: "The link between these two associations was ended: no payment crosses it any more.",
  federationLinkAlreadyEnded: "This link was already ended.",
  federationAddressKeyMismatch: "The server at the new address does not hold this link's key: the address was not changed.",
  federationPaymentEndedByOwners: "The association's owners ended this payment, which the other association never answered: the money is back in your account.",
  federationPaymentEndedOnTheWay:
    "The association this payment went through ended it, as the association it was going to never answered: the money is back in your account.",
  // A server's new key, and a leaked one replaced by the owners (services/federation/key-rotation.ts).
  federationKeyProof: "The new key's proof does not check out: nothing was changed.",
  federationKeyRevoked: "This key was revoked: it is never accepted again.",
  federationFingerprintTyped: "Type the fingerprint their owners read to you: 32 digits and letters from a to f.",
  federationFingerprintNotTheirs:
    "The server at this address holds a key whose fingerprint is not the one you typed: nothing was changed. Compare it again with their owners.",
  // Settling a link (services/federation/settlements.ts).
  federationSettlementNothing: "Neither association owes the other anything now that a settlement could bring down: there is nothing to settle.",
  federationSettlementAmount: "Enter an amount greater than 0.",
  federationSettlementPastDebt:
    "A settlement can only bring what is owed between the two associations down to zero, not past it: this amount is more than what is owed now.",
  federationSettlementOpen: "A settlement of this link waits for an answer: it must be accepted, declined or withdrawn before another is proposed.",
  federationSettlementNote: "A note has at most 200 characters, on one line, without hidden characters.",
  federationSettlementNotFound: "This settlement does not exist.",
  federationSettlementAnswered: "This settlement was already answered or withdrawn: reload the page.",
  federationSettlementNoLongerFits:
    "This settlement no longer fits: what is owed between the two associations fell since it was proposed. Nothing was posted: decline it, and propose a new one if needed.",
  federationSettlementRateChanged:
    "The rate changed since this settlement was proposed. Nothing was posted: decline it, and propose a new one at the new rate.",
  // The marketplace (services/shops/offers.ts).
  offerNeedsAccount: "Choose one of your active accounts to be paid into.",
  offerExpiry: "Choose an expiry in the future, at most {max} days ahead.",
  offersTooMany: "You already have {max} offers and needs listed: withdraw one first.",
  offerNotFound: "This offer does not exist or is no longer listed.",
  offerClosed: "This offer is no longer listed: it expired or was withdrawn.",
  offerPayeeMismatch: "This payment does not match the offer: pay its owner.",
  offerOwnPayment: "You cannot pay for your own offer.",
  offerReportedTwice: "You already reported this offer.",
  offerPhotosTooMany: "An offer has at most {max} photos: remove one first.",
  // Dues (services/association/dues.ts).
  duesRateInvalid: "Enter a rate in percent, more than 0 and at most 100, with at most 4 decimals.",
  duesAmountNeeded: "Enter the dues of members, of businesses, or both.",
  duesFirstDatePast: "Choose a first collection date from today on.",
  duesSettled: "These dues are already paid or waived.",
  duesTakenByServer: "The association takes these dues from your account itself: there is nothing to sign.",
  offerPaymentKinds: "A payment pays either a request or an offer, not both.",
  // Standing orders (services/payments/standing-orders*.ts).
  standingOrderStart: "Choose a first payment date from today, at most {max} days ahead.",
  standingOrderEnd: "The end date must be on or after the first payment's date.",
  standingOrderConfirm: "Confirm with your password or PIN: the server then pays on your behalf on each date.",
  standingOrderClosed: "This standing order has ended or was cancelled: it cannot be changed.",
  standingOrdersTooMany: "You already have {max} standing orders: cancel one first.",
} as const;

/** Any message of the catalogs, whichever package words it. */
export type MsgId = (typeof M)[keyof typeof M] | (typeof SM)[keyof typeof SM];

const MSG_IDS: ReadonlySet<string> = new Set<string>([...Object.values(M), ...Object.values(SM)]);
/** The text is one of the catalogs' msgids (a schema's refusal names its message this way). */
export const isMsgId = (s: string): s is MsgId => MSG_IDS.has(s);
