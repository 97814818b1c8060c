import type { z } from "zod";
import type { RouteName } from "./routes";
import type { schemas } from "./schemas";

type S = typeof schemas;

/** Request body of an operation (never for bodiless ones). */
export type BodyOf<K extends RouteName> = S[K] extends { body: z.ZodType } ? z.input<S[K]["body"]> : undefined;
/** Query string of an operation. */
export type QueryOf<K extends RouteName> = S[K] extends { query: z.ZodType } ? z.input<S[K]["query"]> : undefined;
/** Path parameters of an operation. */
export type ParamsOf<K extends RouteName> = S[K] extends { params: z.ZodType } ? z.input<S[K]["params"]> : undefined;
/** Answer of an operation. */
export type ResponseOf<K extends RouteName> = z.output<S[K]["response"]>;

export type Profile = ResponseOf<"getMyContact">;
export type Backend = ResponseOf<"getBackends">[number];
export type LoginResult = ResponseOf<"login">;
export type AccountEntry = ResponseOf<"getAccounts">[number];
export type SubAccountView = AccountEntry["subAccounts"][number];
export type TransactionView = ResponseOf<"transfer">;
export type PaymentRequestView = ResponseOf<"getPaymentRequest">;
export type AskGroup = ResponseOf<"askMoney">;
export type MoneyAsk = ResponseOf<"declineAsk">;
export type AskList = ResponseOf<"listAsks">;
export type BlockedAsker = ResponseOf<"listBlockedAskers">[number];
export type SalesPage = ResponseOf<"getSales">;
export type Sale = SalesPage["items"][number];
export type Cashier = ResponseOf<"grantCashier">;
export type CashierInvitation = ResponseOf<"listCashierInvitations">[number];
export type Till = ResponseOf<"listTills">[number];
export type Recipient = ResponseOf<"searchRecipients">["rows"][number];
/** What tells apart members whose names look alike (schemas.ts NameHint). */
export type NameHint = NonNullable<Recipient["hint"]>;
export type TransactionsQuery = QueryOf<"getTransactions">;
export type AccountSummary = ResponseOf<"getAccountSummary">;
export type PendingTopUp = ResponseOf<"getPendingTopUps">[number];
export type CreditRequest = ResponseOf<"getCreditRequests">[number];
export type ReconversionView = ResponseOf<"listReconversions">[number];
export type StagingAccount = ResponseOf<"getStagingUserAccounts">[number];
export type AuditPage = ResponseOf<"listAuditLog">;
export type AuditEntry = AuditPage["items"][number];
export type MemberWallet = ResponseOf<"listMemberWallets">[number];
export type MemberSummary = ResponseOf<"searchMembers">[number];
export type MemberFile = ResponseOf<"getMemberFile">;
export type Figures = ResponseOf<"getFigures">;
export type CurrencyFigures = Figures["currencies"][number];
export type TradeBalance = Figures["trade"][number];
export type LedgerHealth = ResponseOf<"getLedgerHealth">;
export type Books = ResponseOf<"getBooks">;
export type BookMovement = Books["movements"][number];
export type DeviceView = ResponseOf<"listDevices">[number];
export type NotificationPage = ResponseOf<"listNotifications">;
export type MemberEvent = NotificationPage["items"][number];
export type NotificationSettings = ResponseOf<"getNotificationSettings">;
export type ImportPreviewView = ResponseOf<"previewImport">;
export type ImportProblem = ImportPreviewView["problems"][number];
export type ImportResult = ResponseOf<"runImport">;
export type Invitations = ResponseOf<"getInvitations">;
export type FederationTerms = NonNullable<ResponseOf<"listFederationLinks">["links"][number]["terms"]>;
export type FederationLink = ResponseOf<"createFederationInvitation">["link"];
export type FederationServer = ResponseOf<"federationServer">;
export type LinkedAssociation = ResponseOf<"listLinkedAssociations">[number];
export type FederationOverview = ResponseOf<"listFederationLinks">;
export type FederationInvitationPreview = ResponseOf<"previewFederationInvitation">;
export type FederationDoubtfulPayment = ResponseOf<"endFederationPayment">;
export type FederationReach = ResponseOf<"listFederationLinks">["reach"][number];
export type FederationRoute = BodyOf<"peerRoutes">["routes"][number];
export type FederationReachedBy = NonNullable<BodyOf<"peerRoutes">["reachedBy"]>[number];
export type FederationKeys = ResponseOf<"getFederationKeys">;
export type FederationLinkKeys = FederationKeys["links"][number];
export type FederationLinkBalance = ResponseOf<"listFederationLinks">["balances"][number];
export type FederationSettlement = ResponseOf<"proposeFederationSettlement">;
export type OfferView = ResponseOf<"getOffer">;
export type ReportedOffer = ResponseOf<"listReportedOffers">[number];
export type Directory = ResponseOf<"getDirectory">;
export type BusinessCard = Directory["businesses"][number];
export type BusinessCategory = Directory["categories"][number];
export type MyBusiness = NonNullable<ResponseOf<"getMyBusiness">>;
export type BusinessRequest = ResponseOf<"listBusinessRequests">[number];
export type DirectorySettings = ResponseOf<"getDirectorySettings">;
export type BusinessFigures = ResponseOf<"getBusinessFigures">;
export type MyDues = ResponseOf<"getMyDues">;
export type DuesRunView = ResponseOf<"payDues">;
export type DuesSettingsView = ResponseOf<"getDuesSettings">;
export type DuesArrearView = ResponseOf<"listDuesArrears">["arrears"][number];
