import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql, startServer, type RunningServer } from "./server";

/** Both servers are on this machine's loopback, over plain HTTP: the operator's setting that lets them reach each other there. */
export const LOOPBACK = { FEDERATION_ALLOW_LOOPBACK_HTTP: "true" };

/**
 * The other association, beside the suite's Demo Lokal: a demo server of its own renamed the
 * Gonette de Lyon, whose currency is the Gonette (GON).
 */
export async function startGonette(env: Record<string, string> = LOOPBACK): Promise<RunningServer> {
  const b = await startServer(env);
  await sql(b, "UPDATE association SET name = 'Gonette de Lyon'");
  await sql(b, "UPDATE currencies SET name = 'Gonette', symbol = 'GON'");
  return b;
}

/**
 * A stand-in for the network between the two servers: an HTTP proxy in front of the other
 * association's server (which gives the proxy's address as its own, PUBLIC_URL), passing everything
 * both ways until told to lose some calls: `loseAnswers(paths)` lets a request to one of them reach
 * the server and be answered there, then drops the answer (the connection closed); `loseCalls`
 * drops the request before it leaves. `pass()` mends it.
 */
export interface LossyProxy {
  url: string;
  /** Where the server behind it listens, once it does. */
  to(port: number): void;
  loseAnswers(...paths: string[]): void;
  loseCalls(...paths: string[]): void;
  pass(): void;
  close(): Promise<void>;
}

export async function lossyProxy(): Promise<LossyProxy> {
  let target = 0;
  let answersLost: string[] = [];
  let callsLost: string[] = [];
  const lost = (list: string[], url: string | undefined) => list.includes((url ?? "").split("?")[0]!);
  const server = http.createServer((req, res) => {
    if (lost(callsLost, req.url)) return void req.socket.destroy();
    const upstream = http.request({ host: "127.0.0.1", port: target, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      if (lost(answersLost, req.url)) {
        // The server did what was asked and answered; the answer never arrives.
        answer.resume();
        answer.on("end", () => req.socket.destroy());
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => req.socket.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    to: (p) => (target = p),
    loseAnswers: (...paths) => (answersLost = paths),
    loseCalls: (...paths) => (callsLost = paths),
    pass: () => {
      answersLost = [];
      callsLost = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
