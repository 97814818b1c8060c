/** The app's path of payment links (`/pay?…`): apart from qr.ts so the login page needs no QR code. */
export const PAY_PATH = "/pay";

/**
 * Whether a link names a page of this server ("/help"): one "/" followed by neither "/" nor a
 * backslash, which browsers read as the start of another server's address ("//evil.example",
 * "/\evil.example"); and no space or control character: browsers drop tabs and line breaks from
 * an address before reading it, so that one between the slashes makes "//" again.
 */
export const isPathOfThisServer = (link: string): boolean => /^\/(?![/\\])[^\s\p{Cc}]*$/u.test(link);

/**
 * The readable cookie the server sets beside its HttpOnly session cookie, holding no secret:
 * without it the app knows it is signed out and shows the login page without asking.
 */
export const SIGNED_IN_COOKIE = "mutua_signed_in";
