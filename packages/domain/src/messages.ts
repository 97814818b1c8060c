/**
 * The exact English texts of the spec (section 8 and 5) that more than one package needs.
 * Keep the spelling of the spec, typos included: they are msgids of the catalogs.
 */
export const M = {
  // Login (docs/spec.md §8)
  loginRefused: "Request refused by remote server. Contact your administrator",
  invalidCredentials: "Invalid credentials",
  requestFailed: "Request failed to remote server.",
  loginUnexpected: "Unexpected issue when attempting to connect to remote server.",
  // Signup and reset (docs/spec.md §5, 8)
  fieldEmpty: "This fiels can not be empty.",
  invalidEmail: "Invalid email.",
  passwordTooShort: "Password must be at least {n} characters long",
  passwordClasses: "Password should use at least one lowercase character, uppercase character, digit, symbol",
  passwordsNotEqual: "The password and the password confirmation must be equal",
  accountCreated: "Your account has been created successfully.",
  // Ours, where the spec is silent
  fieldTooLong: "This field is too long (at most {max} characters).",
  resetEmailSent: "An e-mail with a link to choose a new password has been sent to {email}.",
  passwordChanged: "Your password has been changed. You can now sign in with it.",
  forbidden: "You are not allowed to do this.",
  notFound: "Not found.",
  invalidRequest: "The request is invalid.",
  // Amounts and memos (docs/spec.md §5)
  amountSendNotPositive: "Amount to send must be a number greater than 0",
  amountRequestNotPositive: "Amount to request must be a number greater than 0",
  amountTooLarge: "Amount to send is too large (<= {maxValue})",
  amountTooManyDecimals: "Amount to send must be a number with not more than 2 decimals",
  amountUnexpected: "Unexpected amount received. Try to reenter your amount, and if the problem persists please contact your administator.",
  memoTooLong: "the message description is too long",
  // Ours, where the spec is silent
  memoCharacters: "The message must fit on one line, without invisible or text-direction characters.",
  nameCharacters: "Names cannot contain invisible characters or text-direction marks.",
  // Payment (docs/spec.md §5 "Send pre-checks", 8 "Payment")
  insufficientBalanceShort: "Insufficient balance",
  balanceNotYetProcessed:
    "Your last transactions are not yet all processed. Please wait a few minutes, or lower the amount beneath your real balance of {balance} {currency}. If the problem persists, contact an administrator.",
  internalError: "An unexpected error occurred on the server.",
  noConfirmation: "The transaction was sent but no confirmation was received.",
  noConfirmationAdvice: "Please check the transaction list before trying again, and contact an administrator if the problem persists.",
  insufficientBalance: "Transaction was refused due to insufficient balance",
  targetInactive: "Target account is inactive.",
  cannotSendToAccount: "You can't send money to this account.",
  transferUnexpected: "An unexpected issue occurred during the money transfer. We are sorry for the inconvenience.",
  balanceCheckFailed: "An unexpected issue occurred while checking available funds. The transaction was not sent...",
  idempotencyConflict: "This payment was already sent with different details. Please start it again.",
  invalidSignature: "The payment was not signed by this wallet's key.",
  recipientLimit: "The recipient cannot receive this much mutual credit. Please lower the amount.",
  backendUnavailable: "Temporarily unavailable - please refresh",
  signatureExpired: "This signed payment is too old. Please start it again.",
  // Lookups, transactions, accounts, favourites (docs/spec.md §8)
  recipientListFailed: "An unexpected issue occured while downloading recipient list",
  transactionListFailed: "An unexpected issue occured while downloading transaction list",
  lastTransactionsFailed: "An unexpected issue occurred while loading the last transactions. Sorry for the inconvenience.",
  csvFailed: "An error occured while creating the CSV file",
  csvDownloadFailed: "Transaction list could not be downloaded",
  csvDownloaded: "Transaction list downloaded",
  csvShared: "Transaction list shared",
  walletLoadFailed: "An unexpected issue occurred while loading your wallet information. Sorry for the inconvenience.",
  refreshHint: "You can try to refresh the page, if the issue persists, you may want to contact your administrator",
  accountsRefreshFailed: "Failed to refresh account informations",
  favoriteAddFailed: "An error occurred while adding to favorites.",
  favoriteRemoveFailed: "An error occurred while removing from favorites.",
  pleaseRetry: "Please try again or contact your administrator",
  favoriteAdded: "{name} was added to your favorite list",
  authFailed: "Failed authentication. Please try again.",
  operationCanceled: "Operation canceled",
  // QR codes and camera (docs/spec.md §5 "QR scan", 8)
  qrInvalidFormat: "Invalid QR code content format",
  qrOwnAccount: "You can not transfer money to your own account",
  qrUnreadable: "Unable to read QR code",
  qrRecipientSearchFailed: "An error occured while searching recipient",
  cameraDenied: "Permission denied to the camera",
  // Top-up (docs/spec.md §4, 5 "Top-up amount", 8 "Top-up")
  topUpMin: "The minimum top up amount must be equal or greater than {amount}",
  topUpMax: "The maximum top up amount must be equal or less than {amount}",
  topUpPendingExists: "You already have a pending top-up. Please either pay or delete it before proceeding",
  topUpFailed: "An unexpected issue occurred while attempting to top up your account",
  pendingTopUpsFailed: "An unexpected server error occured while fetching pending topup list",
  pendingTopUpsUnexpected: "An unexpected value was returned in the pending topup list",
  topUpDeleteFailed: "An error occurred while deleting top-up request...",
  topUpCreated: "Top-up request has been successfully created",
  topUpPaid: "The Top-up request has been successfully payed",
  topUpDeleted: "The top-up request has been successfully deleted",
  // Admin (docs/spec.md §8 "Admin", success texts)
  accountApproveFailed: "An unexpected issue occurred while approving the wallet account creation of user {name}.",
  accountDiscardFailed: "An unexpected issue occurred while discarding the wallet account creation of user {name}.",
  creditApproveFailed: "An issue occured upon the approval of the credit request of {name}.",
  accountCreationDecided: "User {name}'s account creation was approved or discarded",
  creditValidated: "Top up request from {name} of {amount} {currency} was validated",
  // Wallet creation (docs/spec.md §8)
  walletAlreadyCreated: "Wallet already created.",
  walletCreationFailed: "Wallet creation unexpectedly failed. Please try again or contact your administrator.",
  walletRegistrationFailed: "Wallet registration unexpectedly failed",
  fileUnreadable: "Failed to read the file contents",
  fileNotText: "Unexpected type of file",
  fileNotJson: "Unexpected format of file",
  // Ours, where the spec is silent
  notAWalletFile: "This file is not a wallet file.",
  walletCreated: "Your wallet is ready.",
  receiptDownloadFailed: "The receipt could not be downloaded.",
  walletRequested: "Your wallet was created. It can be used once an administrator has approved it.",
  settingsSaveFailed: "Your settings could not be saved. Please try again.",
  pinSaveFailed: "Your wallet was created, but its simplified authentication could not be saved. Please set it again in Settings.",
  pinAttemptsLeft: "{count, plural, one {# attempt left} other {# attempts left}} before this PIN is disabled.",
  pinDisabled: "Too many wrong PINs: this PIN is now disabled. Please enter your wallet password.",
  // PIN and simplified authentication (docs/spec.md §5 "PIN", 8)
  pinLength: "PIN code must contain 4 digits",
  pinsDifferent: "Given PINs are different",
  editsSaved: "Edits were successfully saved",
  // Biometric login (docs/spec.md §4 "Login flow", 8)
  biometricSetUp: "Biometric login successfully set up",
  biometricDisabled: "Biometric login successfully disabled",
  biometricSaveFailed: "Unexpected issue occurred while saving your credentials",
  // Step-up and the member's devices (ours, where the spec is silent)
  deviceRemoved: "{name} can no longer sign in to your account.",
  // The member's own profile (ours, where the spec is silent)
  phoneCharacters: "A phone number may contain only digits, spaces and the signs + - . ( )",
  phoneDigits: "A phone number has {min} to {max} digits.",
  // Language (docs/spec.md §8)
  languageLoadFailed: "Failed to load language {lang}",
} as const;
