import { isNative } from "../../../lib/native/platform";

/*
 * Whether this device can do biometric login, apart from doing it (platform.ts): the signed-in
 * screens ask it on every page load (the enrolment offer), so only this much is in the code every
 * page loads; enrolling, signing in and turning it off load with the screens that do them.
 */

// @simplewebauthn/browser and the native plugin load only on screens that use biometrics.
export const webauthn = () => import("@simplewebauthn/browser");
export const nativePlugin = () => import("@capgo/capacitor-native-biometric");

/** A passkey: WebAuthn with a platform authenticator (the fingerprint or face check). */
export async function passkeysAvailable(): Promise<boolean> {
  // A passkey belongs to a domain: a page reached by IP address cannot have one.
  if (/^[\d.]+$|^\[|:/.test(location.hostname)) return false;
  try {
    const { browserSupportsWebAuthn, platformAuthenticatorIsAvailable } = await webauthn();
    return browserSupportsWebAuthn() && (await platformAuthenticatorIsAvailable());
  } catch {
    return false;
  }
}

/** The native plugin's check, in a native shell. */
export async function nativeBiometricsAvailable(): Promise<boolean> {
  try {
    const { NativeBiometric } = await nativePlugin();
    return (await NativeBiometric.isAvailable()).isAvailable;
  } catch {
    return false;
  }
}

/** Passkeys wherever WebAuthn works; the native plugin only inside a native shell without it. */
export const usesNativeBiometrics = async (): Promise<boolean> => isNative() && !(await passkeysAvailable());

/** Whether the way this device would use (see `usesNativeBiometrics`) is available. */
export const biometricAvailable = async (): Promise<boolean> => ((await usesNativeBiometrics()) ? nativeBiometricsAvailable() : passkeysAvailable());
