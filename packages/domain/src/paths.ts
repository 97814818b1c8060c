/** The app's path of payment links (`/pay?…`): apart from qr.ts so the login page needs no QR code. */
export const PAY_PATH = "/pay";
