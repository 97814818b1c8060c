import path from "node:path";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./db/embedded";
import { migrate } from "./db/migrate";
import { createPool } from "./db/pool";
import { readSettings } from "./settings";
import { buildApp } from "./app";
import { outboxMailer, smtpMailer } from "./services/notifications/mail";
import { DEMO_MEMBERS, DEMO_PASSWORD, DEMO_WALLET_PASSWORD, seedDemo } from "./demo/seed";

/**
 * Starts the association's server: PostgreSQL (DATABASE_URL, or an embedded one in DATA_DIR),
 * migrations, optionally the demo association (--demo), then the API and the web app on PORT.
 */
async function main() {
  const demo = process.argv.includes("--demo");
  // The demo pays its top-ups with a test checkout unless told otherwise.
  const settings = readSettings(demo ? { TOPUP_PROVIDER: "demo", ...process.env } : process.env);
  const log = (m: string) => console.log(m);

  let embedded: EmbeddedPostgres | undefined;
  if (!settings.databaseUrl) {
    embedded = await startEmbeddedPostgres(path.join(settings.dataDir), { log: (m) => log(`[postgres] ${m}`) });
    process.on("exit", () => embedded?.stopSync());
    log(`embedded PostgreSQL on 127.0.0.1:${embedded.port}, data in ${settings.dataDir}`);
  }
  const url = settings.databaseUrl ?? embedded!.url;
  await migrate(url, () => {});
  const db = createPool(url, Number(process.env.DATABASE_POOL_SIZE ?? 10));

  if (demo) {
    if (settings.databaseUrl && process.env.MUTUA_DEMO !== "1") {
      throw new Error("Refusing to seed the demo association into DATABASE_URL; set MUTUA_DEMO=1 if that is really wanted.");
    }
    await seedDemo(db);
  }

  const mailer = settings.smtpUrl
    ? smtpMailer(settings.smtpUrl, settings.mailFrom)
    : outboxMailer(path.join(settings.dataDir, "outbox"), settings.mailFrom, (m) => log(`[mail] ${m}`));
  const app = await buildApp({ db, settings, mailer }, { logger: process.env.LOG_LEVEL !== "silent" });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    // Fastify stops accepting connections and lets the requests in flight finish first.
    await app.close().catch(() => undefined);
    await db.end().catch(() => undefined);
    await embedded?.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));

  await app.listen({ port: settings.port, host: settings.host });
  const shown = settings.publicUrlConfigured ? settings.publicUrl : `http://localhost:${settings.port}`;
  log(`\nMutua is running at ${shown}`);
  if (demo) {
    log(`Demo logins (password ${DEMO_PASSWORD}):`);
    for (const m of DEMO_MEMBERS) log(`  ${m.email.padEnd(22)} ${m.role}`);
    log(`Ledger wallets are unlocked with the wallet password ${DEMO_WALLET_PASSWORD}`);
  }
  log(`API documentation: ${shown}/api/docs\n`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
