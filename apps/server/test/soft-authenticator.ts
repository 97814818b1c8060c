import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";

/**
 * Passkeys against a software authenticator (ES256, "none" attestation) that follows the
 * WebAuthn byte formats, so the server's checks run as they do for a phone's fingerprint reader.
 */
export const ORIGIN = "https://wallet.example.org";
export const RP_ID = "wallet.example.org";
const sha256 = (b: Uint8Array | string) => new Uint8Array(createHash("sha256").update(b).digest());
const b64 = (b: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(b));

export class SoftAuthenticator {
  readonly credentialId = new Uint8Array(randomBytes(32));
  private readonly key: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  counter = 0;
  constructor(readonly rpId = RP_ID) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.key = privateKey;
    this.publicJwk = publicKey.export({ format: "jwk" }) as { x: string; y: string };
  }
  get id() {
    return b64(this.credentialId);
  }
  private authData(flags: number, attested?: Uint8Array): Uint8Array {
    const counter = new Uint8Array(4);
    new DataView(counter.buffer).setUint32(0, this.counter);
    return new Uint8Array(Buffer.concat([sha256(this.rpId), Uint8Array.of(flags), counter, ...(attested ? [attested] : [])]));
  }
  register(options: Record<string, unknown>, origin = ORIGIN) {
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, isoBase64URL.toBuffer(this.publicJwk.x)],
      [-3, isoBase64URL.toBuffer(this.publicJwk.y)],
    ]);
    const idLength = Uint8Array.of(0, this.credentialId.length);
    const attested = new Uint8Array(Buffer.concat([new Uint8Array(16), idLength, this.credentialId, isoCBOR.encode(cose)]));
    const authData = this.authData(0x45, attested); // user present, verified, attested data
    const clientDataJSON = JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin, crossOrigin: false });
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]) as never,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: { clientDataJSON: b64(new TextEncoder().encode(clientDataJSON)), attestationObject: b64(attestationObject), transports: ["internal"] },
    };
  }
  assert(options: Record<string, unknown>, { origin = ORIGIN, verified = true } = {}) {
    this.counter++;
    const authData = this.authData(verified ? 0x05 : 0x01);
    const clientData = new TextEncoder().encode(JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin, crossOrigin: false }));
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientData)]), this.key);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      clientExtensionResults: {},
      response: { clientDataJSON: b64(clientData), authenticatorData: b64(authData), signature: b64(new Uint8Array(signature)) },
    };
  }
}
