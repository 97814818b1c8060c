import { adminRoutes, type AdminRouteName, type BodyOf, type QueryOf, type ResponseOf } from "@mutua/domain";
import type { Args, MutuaClient } from "./client";

/** One call of an administrators' operation, with its route from their half of the table. */
export function call<K extends AdminRouteName>(c: MutuaClient, name: K, args?: Args<K>): Promise<ResponseOf<K>> {
  return c.send(name, adminRoutes[name], args);
}

/**
 * The operations of the administrators and of the board, as functions of a client rather than
 * its methods: a class's methods all travel with it, and these would weigh on every member's
 * login page and dashboard; as functions, each admin screen's chunk carries only those it
 * calls. Each is one `call` with the contract's types, like the client's own methods.
 */

export const getCreditRequests = (c: MutuaClient) => call(c, "getCreditRequests");
/** Spec "credit.validate": credits the member; approving twice never pays twice. */
export const validateCredit = (c: MutuaClient, id: string) => call(c, "validateCredit", { body: { id } });
/** A bank transfer for this order arrived (transfer provider). */
export const markTopUpPaid = (c: MutuaClient, id: string) => call(c, "markTopUpPaid", { body: { id } });
/** Unpaid top-up orders, which an administrator marks paid when the bank transfer arrives. */
export const listUnpaidTopUps = (c: MutuaClient) => call(c, "listUnpaidTopUps");

/** The members' pages: find a member, read their file, and help them. */
export const searchMembers = (c: MutuaClient, q = "") => call(c, "searchMembers", { query: { q } });
export const getMemberFile = (c: MutuaClient, memberId: number) => call(c, "getMemberFile", { params: { memberId } });
export const signOutMember = (c: MutuaClient, memberId: number) => call(c, "signOutMember", { params: { memberId } });
export const resetMemberPins = (c: MutuaClient, memberId: number) => call(c, "resetMemberPins", { params: { memberId } });
export const sendMemberPasswordReset = (c: MutuaClient, memberId: number) => call(c, "sendMemberPasswordReset", { params: { memberId } });

export const listMemberWallets = (c: MutuaClient, q = "") => call(c, "listMemberWallets", { query: { q } });
export const setWalletLimits = (c: MutuaClient, body: BodyOf<"setWalletLimits">) => call(c, "setWalletLimits", { body });
export const freezeWallet = (c: MutuaClient, body: BodyOf<"freezeWallet">) => call(c, "freezeWallet", { body });
export const unfreezeWallet = (c: MutuaClient, body: BodyOf<"unfreezeWallet">) => call(c, "unfreezeWallet", { body });

/** The board's: figures, the books, the ledger's health. */
export const getFigures = (c: MutuaClient, query: QueryOf<"getFigures">) => call(c, "getFigures", { query });
export const getBooks = (c: MutuaClient, query: QueryOf<"getBooks">) => call(c, "getBooks", { query });
export const getLedgerHealth = (c: MutuaClient) => call(c, "getLedgerHealth");
export const checkLedger = (c: MutuaClient) => call(c, "checkLedger");

export const listAuditLog = (c: MutuaClient, limit = 100) => call(c, "listAuditLog", { query: { limit } });
export const listReconversions = (c: MutuaClient, query: QueryOf<"listReconversions"> = {}) => call(c, "listReconversions", { query });
export const advanceReconversion = (c: MutuaClient, id: string, status: BodyOf<"advanceReconversion">["status"]) =>
  call(c, "advanceReconversion", { body: { id, status } });
export const getStagingUserAccounts = (c: MutuaClient) => call(c, "getStagingUserAccounts");
/** Spec "account.validateCreation". */
export const validateCreation = (c: MutuaClient, walletId: string) => call(c, "validateCreation", { body: { walletId } });
/** Spec "account.discardCreateRequest". */
export const discardCreateRequest = (c: MutuaClient, walletId: string) => call(c, "discardCreateRequest", { body: { walletId } });
