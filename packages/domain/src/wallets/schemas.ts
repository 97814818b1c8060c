import { z } from "zod";
import { M } from "../messages";
import { hasDeceptiveMemoCharacters } from "../amount";
import { BACKEND_KINDS, LIMITS, WALLET_STATUSES } from "../vocabulary";
import { AmountString, SignedAmountString, WalletId } from "../platform/schemas";
import { SubAccountKind } from "../ledger/schemas";

/** The wallets' contract: backends, a member's accounts and balances, opening and approving wallets, ledger wallet files and PINs, limits and freezes. */

export const BackendKind = z.enum(BACKEND_KINDS);

export const Currency = z.object({ id: z.string(), name: z.string(), symbol: z.string() });

export const UserAccountRef = z.object({ id: z.string(), active: z.boolean() });

export const Backend = z.object({
  /** "kind:name": the part before the colon is the spec's "backend". */
  id: z.string(),
  kind: BackendKind,
  name: z.string(),
  currency: Currency,
  userAccounts: z.array(UserAccountRef),
  canCreateUserAccount: z.boolean(),
});

export const WalletStatus = z.enum(WALLET_STATUSES);

/** A wallet as its owner sees it: a discarded one is no longer theirs to see. */
export const OwnWalletStatus = WalletStatus.exclude(["discarded"]);

export const SubAccountView = z.object({
  id: z.string(),
  kind: SubAccountKind,
  bal: SignedAmountString,
  floor: SignedAmountString.nullable(),
  ceiling: SignedAmountString.nullable(),
  creditable: z.boolean(),
});

export const AccountEntry = z.object({
  /** Wallet id ("ledger:<address>", "custodial:<id>"); "backend" is the part before the colon. */
  id: z.string(),
  backend: BackendKind,
  backendId: z.string(),
  currencyId: z.string(),
  currencyName: z.string(),
  curr: z.string(),
  status: OwnWalletStatus,
  active: z.boolean(),
  /** The backend did not answer (maintenance): "Temporarily unavailable - please refresh". */
  unavailable: z.boolean(),
  bal: SignedAmountString.nullable(),
  subAccounts: z.array(SubAccountView),
  isTopUpAllowed: z.boolean(),
  minCreditAmount: AmountString.nullable(),
  maxCreditAmount: AmountString.nullable(),
  safeWalletRecipient: z.object({ walletId: z.string(), name: z.string() }).nullable(),
  requiresUnlock: z.boolean(),
  hasWalletData: z.boolean(),
  splitMemoSupport: z.boolean(),
  /** Why the association froze this wallet: it can neither send nor receive until unfrozen; null when not frozen. */
  frozenReason: z.string().nullable(),
});

export const Balance = z.object({ bal: SignedAmountString, subAccounts: z.array(SubAccountView) });

/** docs/spec.md §3 "Pending user account". */
export const StagingAccount = z.object({
  walletId: z.string(),
  memberId: z.number().int(),
  name: z.string(),
  /** The member's e-mail, for the account-validation administrators (the route's right). */
  email: z.string(),
  backend: BackendKind,
  backendId: z.string(),
  currencyName: z.string(),
  date: z.string(),
});

export const WalletStatusResult = z.object({ walletId: z.string(), status: WalletStatus });

/**
 * A new wallet: custodial ones need nothing more; ledger ones bring their keystore, made on the
 * device, with `at` and `signature`: the device's signature of `walletRegistrationMessage` by the
 * new key, so nobody opens a wallet on an address whose key they do not hold.
 */
export const CreateWalletBody = z.object({
  backendId: z.string().min(3).max(120),
  keystore: z.record(z.string(), z.unknown()).optional(),
  at: z.string().max(40).optional(),
  signature: z
    .string()
    .regex(/^(0x)?[0-9a-fA-F]{130}$/)
    .optional(),
});

export const CreatedWallet = z.object({ internalId: z.string(), status: WalletStatus.extract(["pending", "active"]) });

/**
 * Importing a wallet file: the device opened it with its password and signed
 * `walletRegistrationMessage`, which proves it holds the key without sending it.
 */
export const RegisterWalletBody = z.object({
  backendId: z.string().min(3).max(120),
  keystore: z.record(z.string(), z.unknown()),
  at: z.string().max(40),
  signature: z.string().regex(/^(0x)?[0-9a-fA-F]{130}$/),
});

export const RegisteredWallet = z.object({
  internalId: z.string(),
  status: OwnWalletStatus,
  /** True when the key was already this member's wallet: its stored file was replaced. */
  replaced: z.boolean(),
});

export const Hex32 = z.string().regex(/^[0-9a-f]{64}$/, "64 lower-case hex digits");

/** A PIN for one wallet on one device: the server keeps a verifier of the PIN and the device secret. */
export const CreatePinBody = z.object({ walletId: WalletId, verifier: Hex32 });

export const PinCreated = z.object({ pinId: z.string(), deviceSecret: Hex32 });

export const PinParams = z.object({ pinId: z.string().uuid() });

export const OpenPinBody = z.object({ proof: Hex32 });

export const PinOpened = z.object({ deviceSecret: Hex32 });

/** A member's wallet as the administration console shows it, with its limits. */
export const MemberWallet = z.object({
  memberId: z.number().int(),
  name: z.string(),
  email: z.string(),
  walletId: z.string(),
  backendId: z.string(),
  backend: BackendKind,
  currencyName: z.string(),
  /** The currency's symbol, which the wallet's amounts are written with. */
  currency: z.string(),
  status: WalletStatus,
  bal: SignedAmountString,
  /** Mutual-credit bounds (ledger wallets only). */
  cmFloor: SignedAmountString.nullable(),
  cmCeiling: SignedAmountString.nullable(),
  topupAllowed: z.boolean(),
  /** Why the association froze this wallet (it neither sends nor receives); null when it is not frozen. */
  frozenReason: z.string().nullable(),
});

/** Why a wallet is frozen, as its owner will read it: one line of 1 to 200 characters. */
export const FreezeReason = z
  .string()
  .trim()
  .min(1, M.invalidRequest)
  .max(LIMITS.freezeReason, M.fieldTooLong)
  .refine((s) => !hasDeceptiveMemoCharacters(s), { message: M.memoCharacters });

export const FreezeWalletBody = z.object({ walletId: z.string().min(3).max(120), reason: FreezeReason });

export const UnfreezeWalletBody = z.object({ walletId: z.string().min(3).max(120) });

export const WalletLimitsBody = z.object({
  walletId: z.string().min(3).max(120),
  cmFloor: SignedAmountString.optional(),
  /** null removes the ceiling. */
  cmCeiling: SignedAmountString.nullable().optional(),
  topupAllowed: z.boolean().optional(),
});
