import type { RouteSpec } from "./route-spec";

/**
 * The operations of the administrators and the board, apart: the client's `admin.call` uses
 * them, so a member's app does not download this half of the table (bench/budgets.json).
 */
export const adminRoutes = {
  getCreditRequests: { method: "GET", path: "/api/admin/credit-requests", access: "credits" },
  /** Spec "credit.validate": credits the member; approving twice never pays twice. */
  validateCredit: { method: "POST", path: "/api/admin/credit-requests/validate", access: "credits" },
  /** A bank transfer for this order arrived (transfer provider). */
  markTopUpPaid: { method: "POST", path: "/api/admin/credit-requests/mark-paid", access: "credits" },
  /** Unpaid top-up orders, which an administrator marks paid when the bank transfer arrives. */
  listUnpaidTopUps: { method: "GET", path: "/api/admin/unpaid-topups", access: "credits" },
  listAuditLog: { method: "GET", path: "/api/admin/audit", access: "both" },
  listMemberWallets: { method: "GET", path: "/api/admin/wallets", access: "both" },
  setWalletLimits: { method: "POST", path: "/api/admin/wallets/limits", access: "both" },
  // The members' pages: the account administrators find a member and help them.
  searchMembers: { method: "GET", path: "/api/admin/members", access: "accountsOrOwner" },
  /** The whole page for the account right; for an owner without it, who the member is and their rights. */
  getMemberFile: { method: "GET", path: "/api/admin/members/:memberId", access: "accountsOrOwner" },
  signOutMember: { method: "POST", path: "/api/admin/members/:memberId/sign-out", access: "accounts" },
  resetMemberPins: { method: "POST", path: "/api/admin/members/:memberId/pin-attempts/reset", access: "accounts" },
  sendMemberPasswordReset: { method: "POST", path: "/api/admin/members/:memberId/password-reset", access: "accounts" },
  /**
   * The owners give and take the rights of another member (never their own), with their password
   * typed again; audited with before and after, and e-mailed to the member.
   */
  setMemberRights: { method: "POST", path: "/api/admin/members/:memberId/rights", access: "owner" },
  /**
   * The association's settings (identity, money), stored in the database and applied by every
   * instance at once; each save is audited with before and after.
   */
  getAssociationSettings: { method: "GET", path: "/api/admin/settings", access: "owner" },
  saveAssociationSettings: { method: "POST", path: "/api/admin/settings", access: "owner" },
  /** How many members a ledger backend's new floor would leave below it, asked before saving. */
  getFloorImpact: { method: "GET", path: "/api/admin/settings/floor-impact", access: "owner" },
  /**
   * A PNG or SVG of at most LOGO_MAX_BYTES, as base64 in JSON. A body of twice that (a logo of
   * some 150 KB) is still read, to be refused in words; a larger one is refused unread.
   */
  uploadAssociationLogo: { method: "POST", path: "/api/admin/settings/logo", access: "owner", bodyLimit: 200 * 1024 },
  removeAssociationLogo: { method: "POST", path: "/api/admin/settings/logo/remove", access: "owner" },
  /**
   * Moving in from another system: the owners upload the old system's files a part at a time
   * (kept in the database, so any instance reads them), see what the import would do, import,
   * then invite the imported members to choose their password.
   */
  uploadImportFile: { method: "POST", path: "/api/admin/import/files", access: "owner", bodyLimit: 1536 * 1024 },
  previewImport: { method: "POST", path: "/api/admin/import/preview", access: "owner" },
  runImport: { method: "POST", path: "/api/admin/import/run", access: "owner" },
  getInvitations: { method: "GET", path: "/api/admin/import/invitations", access: "owner" },
  sendInvitations: { method: "POST", path: "/api/admin/import/invitations", access: "owner" },
  freezeWallet: { method: "POST", path: "/api/admin/wallets/freeze", access: "accounts" },
  unfreezeWallet: { method: "POST", path: "/api/admin/wallets/unfreeze", access: "accounts" },
  listReconversions: { method: "GET", path: "/api/admin/reconversions", access: "both" },
  advanceReconversion: { method: "POST", path: "/api/admin/reconversions/advance", access: "both" },
  // The board's figures and the ledger's health: read-only, for the board and the administrators.
  getFigures: { method: "GET", path: "/api/admin/figures", access: "board" },
  getBooks: { method: "GET", path: "/api/admin/books", access: "board" },
  getLedgerHealth: { method: "GET", path: "/api/admin/ledger-health", access: "board" },
  checkLedger: { method: "POST", path: "/api/admin/ledger-health/check", access: "board" },
  /**
   * Links with other associations' servers (docs/federation.md): an owner of one invites, an
   * owner of the other accepts with the invitation's code, the first confirms. Each side sets
   * its own terms for the other: the currencies' values, its trust limit, on or off.
   */
  listFederationLinks: { method: "GET", path: "/api/admin/federation", access: "owner" },
  createFederationInvitation: { method: "POST", path: "/api/admin/federation/invitations", access: "owner" },
  /**
   * Who an invitation's code comes from, before accepting it: the inviting server's name, address
   * and key fingerprint, read from its well-known address and checked against the code's.
   */
  previewFederationInvitation: { method: "POST", path: "/api/admin/federation/invitations/preview", access: "owner" },
  acceptFederationInvitation: { method: "POST", path: "/api/admin/federation/invitations/accept", access: "owner" },
  confirmFederationLink: { method: "POST", path: "/api/admin/federation/links/:linkId/confirm", access: "owner" },
  setFederationLinkTerms: { method: "POST", path: "/api/admin/federation/links/:linkId/terms", access: "owner" },
  /** Whether this side forwards a link's payments to its other links: told to that link's server with what it reaches. */
  setFederationLinkForwarding: { method: "POST", path: "/api/admin/federation/links/:linkId/forwarding", access: "owner" },
  /** An invitation not answered yet, withdrawn: its code opens nothing any more. */
  withdrawFederationInvitation: { method: "POST", path: "/api/admin/federation/links/:linkId/withdraw", access: "owner" },
  /**
   * A payment across left in doubt past the stated time (FEDERATION_DOUBT_DAYS), the other server
   * silent: ended by an owner of the payer's side, the member's money returned, the other side told.
   */
  endFederationPayment: { method: "POST", path: "/api/admin/federation/links/:linkId/payments/:paymentId/end", access: "owner" },
  /**
   * This server's federation keys (docs/federation.md "Key rotation and revocation"): the current
   * one, those it replaced, and which linked servers have not acknowledged the current one yet.
   */
  getFederationKeys: { method: "GET", path: "/api/admin/federation/keys", access: "owner" },
  /**
   * A new key for this server, announced to every linked server signed by the key it knows (told
   * until acknowledged); with `revoke`, the keys so far leaked: never used again.
   */
  rotateFederationKey: { method: "POST", path: "/api/admin/federation/keys/rotate", access: "owner" },
  /**
   * The other side's key replaced by the one its owners read aloud, after it leaked: checked at its
   * well-known address against the fingerprint typed; every key the link held before is revoked.
   */
  replaceFederationPeerKey: { method: "POST", path: "/api/admin/federation/links/:linkId/peer-key", access: "owner" },
  /**
   * A link ended by an owner of this side: nothing crosses it any more, either way; its balance
   * stays for the boards to settle, and the other side is told until it acknowledged.
   */
  endFederationLink: { method: "POST", path: "/api/admin/federation/links/:linkId/end", access: "owner" },
  /**
   * Settling a link (docs/federation.md "Settlement"): an owner of either side proposes to bring
   * what one side owes the other toward zero, as the boards settle it in euros; an owner of the
   * other side accepts it (posted on both sides) or declines it; its proposer may withdraw it
   * before it is answered.
   */
  proposeFederationSettlement: { method: "POST", path: "/api/admin/federation/links/:linkId/settlements", access: "owner" },
  acceptFederationSettlement: { method: "POST", path: "/api/admin/federation/links/:linkId/settlements/:settlementId/accept", access: "owner" },
  declineFederationSettlement: { method: "POST", path: "/api/admin/federation/links/:linkId/settlements/:settlementId/decline", access: "owner" },
  withdrawFederationSettlement: { method: "POST", path: "/api/admin/federation/links/:linkId/settlements/:settlementId/withdraw", access: "owner" },
  getStagingUserAccounts: { method: "GET", path: "/api/admin/pending-accounts", access: "accounts" },
  /** Spec "account.validateCreation". */
  validateCreation: { method: "POST", path: "/api/admin/pending-accounts/validate", access: "accounts" },
  /** Spec "account.discardCreateRequest". */
  discardCreateRequest: { method: "POST", path: "/api/admin/pending-accounts/discard", access: "accounts" },
} as const satisfies Record<string, RouteSpec>;
