/** The app's path of payment links (`/pay?…`): apart from qr.ts so the login page needs no QR code. */
export const PAY_PATH = "/pay";

/**
 * The readable cookie the server sets beside its HttpOnly session cookie, holding no secret:
 * without it the app knows it is signed out and shows the login page without asking.
 */
export const SIGNED_IN_COOKIE = "mutua_signed_in";
