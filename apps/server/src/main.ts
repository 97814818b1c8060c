import path from "node:path";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./db/embedded";
import { migrate } from "./db/migrate";
import { createPool } from "./db/pool";
import { readSettings } from "./settings";
import { buildApp } from "./app";
import { listenMetrics, type MetricsListener } from "./http/metrics";
import { configuredMailer } from "./services/platform/mail";
import { resolveConfig } from "@mutua/domain";
import { readConfigFile } from "./web";
import { adoptFromEnvironment, readAssociation } from "./services/association/association";
import { DEMO_BUSINESSES } from "./demo/businesses";
import { DEMO_MEMBERS, DEMO_PASSWORD, DEMO_WALLET_PASSWORD, seedDemo } from "./demo/seed";

/**
 * Starts the association's server: PostgreSQL (DATABASE_URL, or an embedded one in DATA_DIR),
 * migrations, optionally the demo association (--demo), then the API and the web app on PORT.
 */
/** How long a stop may take before the process exits anyway, saying what it was waiting for. */
const STOP_DEADLINE_MS = 8_000;
const CLOSING_APP = "closing the HTTP server";

async function main() {
  const demo = process.argv.includes("--demo");
  // The demo pays its top-ups with a test checkout unless told otherwise, and is named after its currency.
  const settings = readSettings(demo ? { TOPUP_PROVIDER: "demo", ASSOCIATION_NAME: "Demo Lokal", ...process.env } : process.env);
  const log = (m: string) => console.log(m);

  let embedded: EmbeddedPostgres | undefined;
  if (!settings.databaseUrl) {
    embedded = await startEmbeddedPostgres(path.join(settings.dataDir), { log: (m) => log(`[postgres] ${m}`) });
    process.on("exit", () => embedded?.stopSync());
    log(`embedded PostgreSQL on 127.0.0.1:${embedded.port}, data in ${settings.dataDir}`);
  }
  const url = settings.databaseUrl ?? embedded!.url;
  await migrate(url, () => {});
  // During a failover there is no primary for some seconds: a request not yet sent to the database
  // waits this long for the new one before it answers 503 (docs/operations.md "High availability").
  const db = createPool(url, Number(process.env.DATABASE_POOL_SIZE ?? 10), { waitForPrimaryMs: Number(process.env.DATABASE_WAIT_SECONDS ?? 10) * 1000 });

  if (demo) {
    if (settings.databaseUrl && process.env.MUTUA_DEMO !== "1") {
      throw new Error("Refusing to seed the demo association into DATABASE_URL; set MUTUA_DEMO=1 if that is really wanted.");
    }
    await seedDemo(db);
  }
  // A database set up before associations had their row takes its settings from the environment, once.
  if (await adoptFromEnvironment(db, settings, resolveConfig(readConfigFile(settings)))) {
    if (!demo)
      log(
        "The association's name, bank details and switches were read from the environment and config.json, once: owners change them from now on in Association settings.",
      );
  }
  const setUp = (await readAssociation(db)) !== null;

  const mailer = configuredMailer(settings, (m) => log(`[mail] ${m}`), { showText: demo });
  const app = await buildApp({ db, settings, mailer }, { logger: process.env.LOG_LEVEL !== "silent" });

  let metrics: MetricsListener | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    // Each step says when it is done, and a stop that hangs says where rather than wait for the
    // SIGKILL that follows (systemd's, after TimeoutStopSec): something is waiting that should not.
    let step = "closing the metrics listener";
    const stuck = setTimeout(() => {
      const detail = step === CLOSING_APP ? ` (${app.closingStep()})` : "";
      console.error(`${signal}: still ${step}${detail} after ${STOP_DEADLINE_MS / 1000} s; exiting`);
      process.exit(1);
    }, STOP_DEADLINE_MS);
    stuck.unref();
    await metrics?.close().catch(() => undefined);
    // Fastify stops accepting connections and lets the requests in flight finish first.
    step = CLOSING_APP;
    await app.close().catch(() => undefined);
    step = "ending the database pool (connections still checked out)";
    await db.end().catch(() => undefined);
    step = "stopping the embedded PostgreSQL";
    await embedded?.stop();
    log(`${signal}: stopped`);
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));

  await app.listen({ port: settings.port, host: settings.host });
  // Prometheus metrics on a port of their own (METRICS_PORT), once the app serves.
  if (settings.metrics) {
    metrics = await listenMetrics(app.metrics, settings.metrics, app.log);
    log(`Metrics at http://${settings.metrics.host}:${metrics.port}/metrics${settings.metrics.token ? " (with METRICS_TOKEN)" : ""}`);
  }
  const shown = settings.publicUrlConfigured ? settings.publicUrl : `http://localhost:${settings.port}`;
  log(`\nMutua is running at ${shown}`);
  if (demo) {
    log(`Demo logins (password ${DEMO_PASSWORD}):`);
    for (const m of DEMO_MEMBERS) log(`  ${m.email.padEnd(22)} ${m.role}`);
    log(`  ${DEMO_BUSINESSES.length} businesses on the map (/carto), e.g. ${DEMO_BUSINESSES[0].email}, each with a custodial wallet`);
    log(`Ledger wallets are unlocked with the wallet password ${DEMO_WALLET_PASSWORD}`);
  }
  log(`API documentation: ${shown}/api/docs\n`);
  if (!setUp) {
    log("This association is not set up yet: there is no currency and no administrator.");
    log("Run `npm run setup` on this server (or `npm run setup -- --file association.json`): the app picks it up at once.\n");
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
