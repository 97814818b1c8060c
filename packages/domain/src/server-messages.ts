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
  paymentRequestPaid: "This request has already been paid.",
  paymentRequestExpired: "This payment request has expired.",
  paymentRequestCancelled: "This payment request was cancelled.",
  paymentRequestNotFound: "Payment request not found.",
  cashierOnly: "As a cashier of this account you can take payments into it and see its sales, nothing else.",
  cashierInvitationGone: "This invitation no longer stands: it was withdrawn or has expired.",
  cashierSelf: "You already run this account's till.",
  cashierTooMany: "This account already has {max} cashiers: remove one first.",
  paymentRequestMismatch: "This payment does not match the request: pay its exact amount to its recipient.",
  paymentRequestMemoMismatch: "This payment does not match the request: its memo for the recipient must be the request's.",
  paymentRequestsTooMany: "Too many open payment requests: cancel one first.",
  askSelf: "You cannot ask yourself for money.",
  askTwice: "Each member can be asked only once in one request.",
  askNoAccount: "{name} has no account in this currency.",
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
  logoInvalid: "The logo must be a PNG or SVG image of at most 256 KB.",
  // The member's own profile: photo, e-mail address, password.
  photoType: "The photo must be a JPEG, WebP or PNG image.",
  photoTooLarge: "The photo is too large: at most {max} KB.",
  emailUnchanged: "This is already your e-mail address.",
  emailTakenByAnother: "Another member already uses this e-mail address.",
  mailNotSent: "The e-mail could not be sent. Please try again in a few minutes.",
  importPartUnexpected: "This part of the file was not expected: choose the file again to upload it from its start.",
  importFileTooLarge: "The file is too large: at most 200 MB can be imported at once.",
  importUploadGone: "This file is no longer here (uploaded files are kept a day): choose it again.",
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
  federationPeerUnreachable: "The other association's server did not answer. Please try again later.",
  federationPeerUnverifiable: "The other association's server answered something this server cannot verify: nothing was changed.",
  federationPeerRefused: "The other association's server refused: {reason}",
  federationTermsNotTold: "Saved on this server, but the other association's server did not answer: it still counts your previous terms. Save again later.",
  federationSignatureRefused: "This message's signature was refused.",
  federationNotLinked: "This association is not linked with yours: its members cannot be paid from here.",
  federationLinkOff: "Payments between these two associations are switched off.",
  federationRatesDiffer: "The two associations count different rates: no payment can cross until they agree.",
  federationRateChanged: "The rate changed since this amount was worked out: please look at the new amount.",
  federationPayeeUnknown: "This recipient does not exist in the other association.",
  federationTrustLimit: "This payment would take the balance between the two associations past the limit their boards set.",
  federationPaymentRefused: "The other association refused this payment: nothing was paid.",
} as const;

/** Any message of the catalogs, whichever package words it. */
export type MsgId = (typeof M)[keyof typeof M] | (typeof SM)[keyof typeof SM];

const MSG_IDS: ReadonlySet<string> = new Set<string>([...Object.values(M), ...Object.values(SM)]);
/** The text is one of the catalogs' msgids (a schema's refusal names its message this way). */
export const isMsgId = (s: string): s is MsgId => MSG_IDS.has(s);
