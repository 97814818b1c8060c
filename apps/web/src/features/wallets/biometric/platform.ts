import type { MutuaClient } from "@mutua/client";
import { nativeBiometricsAvailable, nativePlugin as plugin, passkeysAvailable, usesNativeBiometrics, webauthn } from "./availability";
import type { LoginResult } from "@mutua/domain";

/**
 * Biometric login behind one small interface (docs/spec.md §4 "Login flow"). On the web, and in native
 * shells whose WebView has WebAuthn, it is a passkey: the platform authenticator checks the
 * fingerprint or face, the server verifies its signature, and no password is stored on the device.
 * Elsewhere in a native shell, a maintained biometric plugin guards a server-issued secret in the
 * phone's Keychain/Keystore (again never the password, and revoked the same way).
 */
export interface BiometricLogin {
  isAvailable(): Promise<boolean>;
  /** Registers this device for the signed-in member; returns the credential's id. */
  enroll(client: MutuaClient): Promise<string>;
  /** Asks the biometric check and opens a session with this device's credential. */
  signIn(client: MutuaClient, credentialId: string): Promise<LoginResult>;
  /** Forgets this device's credential on the server (and on the device where it keeps one). */
  disable(client: MutuaClient, credentialId: string): Promise<void>;
}

export const passkeys: BiometricLogin = {
  isAvailable: passkeysAvailable,
  async enroll(client) {
    const { startRegistration } = await webauthn();
    const { challengeId, options } = await client.call("passkeyRegistrationOptions");
    const response = await startRegistration({ optionsJSON: options as never });
    return (await client.call("registerPasskey", { body: { challengeId, response: response as unknown as Record<string, unknown> } })).credentialId;
  },
  async signIn(client, credentialId) {
    const { startAuthentication } = await webauthn();
    const { challengeId, options } = await client.call("passkeyLoginOptions", { body: { credentialId } });
    const response = await startAuthentication({ optionsJSON: options as never });
    return client.call("passkeyLogin", { body: { challengeId, response: response as unknown as Record<string, unknown> } });
  },
  async disable(client, credentialId) {
    await client.call("deletePasskey", { params: { credentialId } });
  },
};

/** The Keychain/Keystore entry holding this app's device credential. */
export const KEYCHAIN_ENTRY = "mutua-login";
export const nativeBiometrics: BiometricLogin = {
  isAvailable: nativeBiometricsAvailable,
  async enroll(client) {
    const { NativeBiometric, AccessControl } = await plugin();
    const { credentialId, secret } = await client.call("createDeviceLogin");
    try {
      // Readable only after a biometric check, and void once the enrolled fingers or faces change.
      await NativeBiometric.setCredentials({
        server: KEYCHAIN_ENTRY,
        username: credentialId,
        password: secret,
        accessControl: AccessControl.BIOMETRY_CURRENT_SET,
      });
    } catch (e) {
      await client.call("deletePasskey", { params: { credentialId } }).catch(() => undefined);
      throw e;
    }
    return credentialId;
  },
  async signIn(client, credentialId) {
    const { NativeBiometric } = await plugin();
    const { username, password } = await NativeBiometric.getSecureCredentials({ server: KEYCHAIN_ENTRY });
    if (username !== credentialId) throw new Error("The secure storage holds another credential");
    return client.call("deviceLogin", { body: { credentialId: username, secret: password } });
  },
  async disable(client, credentialId) {
    await client.call("deletePasskey", { params: { credentialId } });
    const { NativeBiometric } = await plugin();
    await NativeBiometric.deleteCredentials({ server: KEYCHAIN_ENTRY }).catch(() => undefined);
  },
};

/** Passkeys wherever WebAuthn works; the native plugin only inside a native shell without it (availability.ts). */
export async function chooseBiometricLogin(): Promise<BiometricLogin> {
  return (await usesNativeBiometrics()) ? nativeBiometrics : passkeys;
}

let chosen: Promise<BiometricLogin> | null = null;
const impl = () => (chosen ??= chooseBiometricLogin());

export const biometricLogin: BiometricLogin = {
  isAvailable: async () => (await impl()).isAvailable(),
  enroll: async (client) => (await impl()).enroll(client),
  signIn: async (client, credentialId) => (await impl()).signIn(client, credentialId),
  disable: async (client, credentialId) => (await impl()).disable(client, credentialId),
};
