/**
 * The exact English texts of the spec (section 8 and 5) that more than one package needs.
 * Keep the spelling of the spec, typos included: they are msgids of the catalogs.
 */
export const M = {
  // Login (spec 8)
  loginRefused: "Request refused by remote server. Contact your administrator",
  invalidCredentials: "Invalid credentials",
  requestFailed: "Request failed to remote server.",
  loginUnexpected: "Unexpected issue when attempting to connect to remote server.",
  // Signup and reset (spec 5, 8)
  fieldEmpty: "This fiels can not be empty.",
  invalidEmail: "Invalid email.",
  passwordTooShort: "Password must be at least {n} characters long",
  passwordClasses: "Password should use at least one lowercase character, uppercase character, digit, symbol",
  passwordsNotEqual: "The password and the password confirmation must be equal",
  userExists: "User or email already exist.",
  unknownUser: "Unknown user or email. Please make sure to provide a valid username or email.",
  accountCreated: "Your account has been created successfully.",
  // Ours, where the spec is silent
  fieldTooLong: "This field is too long (at most {max} characters).",
  rateLimited: "Too many attempts. Please wait {minutes, plural, one {# minute} other {# minutes}} and try again.",
  resetTokenInvalid: "This password reset link is invalid or has expired. Please ask for a new one.",
  resetEmailSent: "An e-mail with a link to choose a new password has been sent to {email}.",
  passwordChanged: "Your password has been changed. You can now sign in with it.",
  signupDisabled: "Sign-up is not available on this server.",
  resetDisabled: "Password reset is not available on this server.",
  loginRequired: "Your session has ended. Please sign in again.",
  forbidden: "You are not allowed to do this.",
  notFound: "Not found.",
  invalidRequest: "The request is invalid.",
  // Amounts and memos (spec 5)
  amountSendNotPositive: "Amount to send must be a number greater than 0",
  amountRequestNotPositive: "Amount to request must be a number greater than 0",
  amountTooLarge: "Amount to send is too large (<= {maxValue})",
  amountTooManyDecimals: "Amount to send must be a number with not more than 2 decimals",
  amountUnexpected: "Unexpected amount received. Try to reenter your amount, and if the problem persists please contact your administator.",
  memoTooLong: "the message description is too long",
  // Payment (spec 5 "Send pre-checks", 8 "Payment")
  insufficientBalanceShort: "Insufficient balance",
  balanceNotYetProcessed: "Your last transactions are not yet all processed. Please wait a few minutes, or lower the amount beneath your real balance of {balance} {currency}. If the problem persists, contact an administrator.",
  internalError: "An unexpected error occurred on the server.",
  noConfirmation: "The transaction was sent but no confirmation was received.",
  insufficientBalance: "Transaction was refused due to insufficient balance",
  targetInactive: "Target account is inactive.",
  cannotSendToAccount: "You can't send money to this account.",
  transferUnexpected: "An unexpected issue occurred during the money transfer. We are sorry for the inconvenience.",
  balanceCheckFailed: "An unexpected issue occurred while checking available funds. The transaction was not sent...",
  idempotencyConflict: "This payment was already sent with different details. Please start it again.",
  invalidSignature: "The payment was not signed by this wallet's key.",
  signatureExpired: "This signed payment is too old. Please start it again.",
  // Lookups, transactions, accounts, favourites (spec 8)
  recipientLookupFailed: "An unexpected issue occurred while performing recipient lookup...",
  recipientListFailed: "An unexpected issue occured while downloading recipient list",
  transactionListFailed: "An unexpected issue occured while downloading transaction list",
  lastTransactionsFailed: "An unexpected issue occurred while loading the last transactions...",
  csvFailed: "An error occured while creating the CSV file",
  csvDownloadFailed: "Transaction list could not be downloaded",
  csvDownloaded: "Transaction list downloaded",
  csvShared: "Transaction list shared",
  walletLoadFailed: "An unexpected issue occurred while loading your wallet information...",
  accountsRefreshFailed: "Failed to refresh account informations",
  favoriteAddFailed: "An error occurred while adding to favorites.",
  favoriteRemoveFailed: "An error occurred while removing from favorites.",
  pleaseRetry: "Please try again or contact your administrator",
  // Language (spec 8)
  languageLoadFailed: "Failed to load language {lang}",
} as const;
