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
  internalError: "An unexpected error occurred on the server.",
  invalidRequest: "The request is invalid.",
  // Language (spec 8)
  languageLoadFailed: "Failed to load language {lang}",
} as const;
