import type { MutuaClient } from "@mutua/client";
import type { LoginResult } from "@mutua/domain";

/**
 * Biometric login behind one small interface (spec 4 "Login flow"). On the web, and in native
 * shells whose WebView has WebAuthn, it is a passkey: the platform authenticator checks the
 * fingerprint or face, the server verifies its signature, and no password is stored on the device.
 */
export interface BiometricLogin {
  isAvailable(): Promise<boolean>;
  /** Registers this device for the signed-in member; returns the credential's id. */
  enroll(client: MutuaClient): Promise<string>;
  /** Asks the biometric check and opens a session with it. */
  signIn(client: MutuaClient, credentialId: string): Promise<LoginResult>;
  /** Forgets this device's credential on the server. */
  disable(client: MutuaClient, credentialId: string): Promise<void>;
}

// @simplewebauthn/browser loads only on screens that use biometrics.
const lib = () => import("@simplewebauthn/browser");

export const passkeys: BiometricLogin = {
  async isAvailable() {
    // A passkey belongs to a domain: a page reached by IP address cannot have one.
    if (/^[\d.]+$|^\[|:/.test(location.hostname)) return false;
    try {
      const { browserSupportsWebAuthn, platformAuthenticatorIsAvailable } = await lib();
      return browserSupportsWebAuthn() && (await platformAuthenticatorIsAvailable());
    } catch {
      return false;
    }
  },
  async enroll(client) {
    const { startRegistration } = await lib();
    const { challengeId, options } = await client.passkeyRegistrationOptions();
    const response = await startRegistration({ optionsJSON: options as never });
    return (await client.registerPasskey(challengeId, response as unknown as Record<string, unknown>)).credentialId;
  },
  async signIn(client, credentialId) {
    const { startAuthentication } = await lib();
    const { challengeId, options } = await client.passkeyLoginOptions(credentialId);
    const response = await startAuthentication({ optionsJSON: options as never });
    return client.passkeyLogin(challengeId, response as unknown as Record<string, unknown>);
  },
  async disable(client, credentialId) {
    await client.deletePasskey(credentialId);
  },
};

export const biometricLogin: BiometricLogin = passkeys;
