import { execFileSync } from "node:child_process";
import { createECDH, randomBytes, type ECDH } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import ece from "http_ece";

/**
 * A push service of the test's own (what Google's, Mozilla's or Apple's are to real browsers, out
 * of reach here): an HTTPS server on 127.0.0.1 with a certificate made for the run, recording what
 * the app's server sends it. The server trusts the certificate through NODE_EXTRA_CA_CERTS.
 */
export interface PushService {
  origin: string;
  /** The certificate's file, for NODE_EXTRA_CA_CERTS. */
  certFile: string;
  received: { path: string; headers: Record<string, string | string[] | undefined>; body: Buffer }[];
  /** Resolves with the next message sent to `pathName`. */
  next(pathName: string, timeoutMs?: number): Promise<Buffer>;
  close(): Promise<void>;
}

export async function startPushService(): Promise<PushService> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-push-"));
  const keyFile = path.join(dir, "key.pem");
  const certFile = path.join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-keyout",
      keyFile,
      "-out",
      certFile,
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ],
    { stdio: "ignore" },
  );
  const received: PushService["received"] = [];
  const waiters: { path: string; resolve: (b: Buffer) => void }[] = [];
  const server = https.createServer({ key: fs.readFileSync(keyFile), cert: fs.readFileSync(certFile) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      received.push({ path: req.url ?? "", headers: req.headers, body });
      const w = waiters.findIndex((x) => x.path === req.url);
      if (w >= 0) waiters.splice(w, 1)[0]!.resolve(body);
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    origin: `https://127.0.0.1:${port}`,
    certFile,
    received,
    next: (pathName, timeoutMs = 10_000) =>
      new Promise<Buffer>((resolve, reject) => {
        const earlier = received.find((r) => r.path === pathName);
        if (earlier) return resolve(earlier.body);
        const timer = setTimeout(() => reject(new Error(`no push to ${pathName} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ path: pathName, resolve: (b) => (clearTimeout(timer), resolve(b)) });
      }),
    close: async () => {
      await new Promise((r) => server.close(r));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A device's keys, as a browser makes them for a push subscription (RFC 8291), and their decryption. */
export function deviceKeys(): { p256dh: string; auth: string; decrypt(body: Buffer): string } {
  const ecdh: ECDH = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    p256dh: ecdh.getPublicKey().toString("base64url"),
    auth: auth.toString("base64url"),
    decrypt: (body) => ece.decrypt(body, { version: "aes128gcm", privateKey: ecdh, authSecret: auth }).toString("utf8"),
  };
}
