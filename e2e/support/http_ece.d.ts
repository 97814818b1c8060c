/** http_ece (web-push's own encryption, RFC 8188) ships no types: what the push service of the e2e tests uses of it. */
declare module "http_ece" {
  import type { ECDH } from "node:crypto";
  const ece: {
    decrypt(buffer: Buffer, params: { version: "aes128gcm"; privateKey: ECDH; authSecret: Buffer }): Buffer;
  };
  export default ece;
}
