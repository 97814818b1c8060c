import { beforeEach, describe, expect, it, vi } from "vitest";
import type { MutuaClient } from "@mutua/client";

/** A phone's secure storage as the plugin exposes it: one entry, readable only after the biometric check. */
const keychain = new Map<string, { username: string; password: string; accessControl?: number }>();
const device = { native: true, webauthn: false, fingerOk: true };

vi.mock("../../../lib/native/platform", () => ({ isNative: () => device.native }));
vi.mock("@simplewebauthn/browser", () => ({
  browserSupportsWebAuthn: () => device.webauthn,
  platformAuthenticatorIsAvailable: async () => device.webauthn,
}));
vi.mock("@capgo/capacitor-native-biometric", () => ({
  AccessControl: { NONE: 0, BIOMETRY_CURRENT_SET: 1, BIOMETRY_ANY: 2 },
  NativeBiometric: {
    isAvailable: async () => ({ isAvailable: true }),
    setCredentials: async (o: { server: string; username: string; password: string; accessControl?: number }) => void keychain.set(o.server, o),
    getSecureCredentials: async ({ server }: { server: string }) => {
      const entry = keychain.get(server);
      if (!device.fingerOk || !entry || !entry.accessControl) throw new Error("authentication failed");
      return { username: entry.username, password: entry.password };
    },
    deleteCredentials: async ({ server }: { server: string }) => void keychain.delete(server),
  },
}));

const { chooseBiometricLogin, nativeBiometrics, passkeys, KEYCHAIN_ENTRY } = await import("./platform");

/** The server's side of device logins, enough to see what the adapter sends: `call` answers each operation by its name. */
function fakeClient() {
  const issued = new Map<string, string>();
  const operations = {
    createDeviceLogin: vi.fn(async () => {
      const credentialId = `device:${crypto.randomUUID()}`;
      const secret = "s".repeat(43);
      issued.set(credentialId, secret);
      return { credentialId, secret };
    }),
    deviceLogin: vi.fn(async ({ body }: { body: { credentialId: string; secret: string } }) => {
      if (issued.get(body.credentialId) !== body.secret) throw new Error("Invalid credentials");
      return { token: "t", expiresAt: "", profile: { id: 1, name: "Carol Petit", firstName: "Carol", lastName: "Petit", email: "carol@example.com" } };
    }),
    deletePasskey: vi.fn(async ({ params }: { params: { credentialId: string } }) => {
      issued.delete(params.credentialId);
      return { ok: true as const };
    }),
  };
  const call = vi.fn(async (name: string, args?: unknown) => {
    if (!(name in operations)) throw new Error(`unexpected call: ${name}`);
    return (operations[name as keyof typeof operations] as (args: unknown) => Promise<unknown>)(args);
  });
  return { client: { call } as unknown as MutuaClient, calls: operations, issued };
}

beforeEach(() => {
  keychain.clear();
  Object.assign(device, { native: true, webauthn: false, fingerOk: true });
});

describe("biometric login in a native shell", () => {
  it("uses passkeys on the web and where the WebView has WebAuthn, the plugin otherwise", async () => {
    device.native = false;
    expect(await chooseBiometricLogin()).toBe(passkeys);
    Object.assign(device, { native: true, webauthn: true });
    expect(await chooseBiometricLogin()).toBe(passkeys);
    device.webauthn = false;
    expect(await chooseBiometricLogin()).toBe(nativeBiometrics);
  });

  it("keeps a server-issued secret behind the biometric check (never the password), signs in with it, and forgets it when disabled", async () => {
    const { client, calls, issued } = fakeClient();
    const id = await nativeBiometrics.enroll(client);
    const stored = keychain.get(KEYCHAIN_ENTRY)!;
    expect(stored).toMatchObject({ username: id, password: issued.get(id), accessControl: 1 });
    expect((await nativeBiometrics.signIn(client, id)).profile.email).toBe("carol@example.com");

    device.fingerOk = false;
    await expect(nativeBiometrics.signIn(client, id)).rejects.toThrow();
    expect(calls.deviceLogin).toHaveBeenCalledTimes(1);

    await nativeBiometrics.disable(client, id);
    expect(calls.deletePasskey).toHaveBeenCalledWith({ params: { credentialId: id } });
    expect(keychain.size).toBe(0);
    expect(issued.size).toBe(0);
  });

  it("withdraws the server's credential when the phone cannot store it", async () => {
    const { client, issued } = fakeClient();
    const { NativeBiometric } = await import("@capgo/capacitor-native-biometric");
    vi.spyOn(NativeBiometric, "setCredentials").mockRejectedValueOnce(new Error("no secure storage"));
    await expect(nativeBiometrics.enroll(client)).rejects.toThrow("no secure storage");
    expect(issued.size).toBe(0);
  });
});
