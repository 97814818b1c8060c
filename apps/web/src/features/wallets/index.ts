/**
 * The wallets' face: what the other areas of the app may use of the member's accounts and their
 * keys (names of accounts, unlocking, PINs, biometrics, wallet files).
 */
export { accountLabel, backendLabel, subAccountLabel, walletName } from "./accounts/labels";
export { biometricLogin } from "./biometric/platform";
export { useBiometricAvailable } from "./biometric/queries";
export { biometricOffer, useBiometricState } from "./biometric/store";
export { PinFields, usePinDraft } from "./unlock/PinEditor";
export { UnlockProvider, useUnlock } from "./unlock/UnlockProvider";
export { OperationCanceled } from "./unlock/operation-canceled";
export { savePin } from "./unlock/pins";
export { retainedKeys } from "./unlock/retention";
export { useWalletUploads } from "./wallet-file/ImportWallet";
export { useExportWallet } from "./wallet-file/useWalletFile";
