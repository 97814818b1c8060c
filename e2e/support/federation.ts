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
