import type { FastifyInstance } from "fastify";
import { ErrorCode, M } from "@mutua/domain";
import type { AppDeps } from "../deps";
import { operation } from "../http/contract";
import { advanceReconversion, listReconversions } from "../services/payments/reconversions";
import { decideCreation, stagingAccounts } from "../services/wallets/staging";
import { ordersInState } from "../services/payments/topups";
import { listMemberWallets, setWalletLimits } from "../services/wallets/limits";
import { freezeWallet, unfreezeWallet } from "../services/payments/freeze";
import { boardFigures } from "../services/board/figures";
import { exportBooks } from "../services/board/books";
import { auditLog } from "../services/platform/audit";
import { ledgerCheckOnDemand, ledgerHealth } from "../services/board/ledger-health";
import { memberFile, resendPasswordReset, resetPinAttempts, searchMembers, signOutEverywhere } from "../services/members/member-file";
import { setMemberRights } from "../services/members/grant-rights";
import { holdsRight } from "../services/members/rights";
import { findMemberById } from "../services/members/members";
import { associationSettings, floorImpact, saveAssociationSettings } from "../services/association/settings";
import { removeLogo, saveLogo } from "../services/association/logo";
import { Refusal } from "../services/platform/errors";

const notSetUp = (): never => {
  throw new Refusal(ErrorCode.notFound, { id: M.notFound });
};

/** Reconversions (both rights), pending wallet creations (account right), the board's figures, members' rights (owners); `operation` checks the right. */
export function adminRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, settings, mailer } = deps;
  // What the owners read back after a change: the database's, not an instance's copy of it.
  const settingsNow = async () => (await associationSettings(db, settings)) ?? notSetUp();
  operation(app, deps, "listReconversions", async ({ query }) => listReconversions(db, query.status));
  operation(app, deps, "advanceReconversion", async ({ memberId, body }) => advanceReconversion(db, memberId, body.id, body.status));
  operation(app, deps, "listUnpaidTopUps", async () => ordersInState(db, "unpaid"));
  operation(app, deps, "searchMembers", async ({ query }) => searchMembers(db, query.q));
  operation(app, deps, "getMemberFile", async ({ memberId, params }) => {
    const file = await memberFile(db, BigInt(params.memberId));
    const caller = await findMemberById(db, memberId);
    // An owner without the account right reads who the member is and their rights, to hand them
    // out: not their money, movements, sign-ins or PINs.
    if (caller && holdsRight(caller, "accounts")) return file;
    return { ...file, wallets: [], transactions: [], topUps: [], reconversions: [], sessions: [], deviceLogins: 0, pins: [] };
  });
  operation(app, deps, "signOutMember", async ({ memberId, params }) => signOutEverywhere(db, memberId, BigInt(params.memberId)));
  operation(app, deps, "resetMemberPins", async ({ memberId, params }) => resetPinAttempts(db, memberId, BigInt(params.memberId)));
  operation(app, deps, "sendMemberPasswordReset", async ({ memberId, params }) =>
    resendPasswordReset(db, settings, mailer, memberId, BigInt(params.memberId), deps.defaultLanguage),
  );
  operation(app, deps, "setMemberRights", async ({ req, memberId, params, body }) =>
    setMemberRights(db, settings, mailer, memberId, req.ip, BigInt(params.memberId), body.rights, body.password, deps.defaultLanguage),
  );
  operation(app, deps, "getAssociationSettings", async () => settingsNow());
  operation(app, deps, "saveAssociationSettings", async ({ memberId, body }) => {
    // Members pay top-ups by transfer to the IBAN (unless a card checkout is configured).
    await saveAssociationSettings(db, memberId, body, { transfersNeedIban: settings.topupProvider === "transfer" });
    return settingsNow();
  });
  operation(app, deps, "getFloorImpact", async ({ query }) => floorImpact(db, query.backendId, query.floor));
  operation(app, deps, "uploadAssociationLogo", async ({ memberId, body }) => {
    await saveLogo(db, memberId, body.type, body.data);
    return settingsNow();
  });
  operation(app, deps, "removeAssociationLogo", async ({ memberId }) => {
    await removeLogo(db, memberId);
    return settingsNow();
  });
  operation(app, deps, "listMemberWallets", async ({ query }) => listMemberWallets(db, query.q));
  operation(app, deps, "setWalletLimits", async ({ memberId, body }) => setWalletLimits(db, memberId, body));
  operation(app, deps, "freezeWallet", async ({ memberId, body }) => freezeWallet(db, memberId, body.walletId, body.reason));
  operation(app, deps, "unfreezeWallet", async ({ memberId, body }) => unfreezeWallet(db, memberId, body.walletId));
  operation(app, deps, "listAuditLog", async ({ query }) => auditLog(db, query));
  operation(app, deps, "getFigures", async ({ memberId, query }) => boardFigures(db, settings.limits.figuresPerMember, memberId, query));
  // The books are the contract's JSON written by the service a page at a time (see exportBooks), not by the route's serializer.
  operation(app, deps, "getBooks", async ({ memberId, query, reply }) =>
    reply.type("application/json; charset=utf-8").send(await exportBooks(db, settings.limits.booksPerMember, memberId, query)),
  );
  operation(app, deps, "getLedgerHealth", async () => ledgerHealth(db));
  const checkLedgerNow = ledgerCheckOnDemand(db, app.log);
  operation(app, deps, "checkLedger", async ({ memberId }) => checkLedgerNow(memberId));
  operation(app, deps, "getStagingUserAccounts", async () => stagingAccounts(db));
  operation(app, deps, "validateCreation", async ({ memberId, body }) => decideCreation(db, memberId, body.walletId, "active"));
  operation(app, deps, "discardCreateRequest", async ({ memberId, body }) => decideCreation(db, memberId, body.walletId, "discarded"));
}
