import fs from "node:fs";
import path from "node:path";
import { fakeTimeLibrary, freePort, spawnServer, sql, TEMPLATE_ENV, type RunningServer } from "./server";

/**
 * A server with the demo association whose clock, and its PostgreSQL's, a test moves forward
 * while it runs: for what falls due by the calendar (dues, standing orders), seen through the
 * browser on the day it falls due. Debian's libfaketime is preloaded into the server and the
 * database it starts; both read the clock's offset from a file the test rewrites (read again at
 * most once a second), so they always agree. Monotonic clocks stay real: timers, time-outs and the
 * polls keep their length. The data folder is a copy of the run's demo one, so its history lies
 * where it was laid out (today, really); only "now" moves.
 *
 * Sessions must outlive the jumps: the server is started with idle and absolute session lengths
 * of a year unless `env` says otherwise. A browser page's own clock is the test's to set
 * (`page.clock`), when what it shows depends on the date.
 */
export interface MovableClockServer extends RunningServer {
  /** Moves the server's and its database's clock to `at` (later than their now), and returns once the database reads it. */
  moveTo(at: Date): Promise<void>;
}

export async function startServerWithMovableClock(at: Date, env: Record<string, string> = {}): Promise<MovableClockServer> {
  const lib = fakeTimeLibrary();
  if (!lib) throw new Error("libfaketime is not installed (apt-get install faketime): npm test installs it");
  const dir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? "/tmp"), "mutua-clock-"));
  // Readable by the PostgreSQL the server starts, which runs as an unprivileged user under root.
  fs.chmodSync(dir, 0o755);
  const file = path.join(dir, "faketime");
  const write = (to: Date) => {
    // A relative offset in seconds: the clocks run on from there at their real pace.
    const seconds = Math.round((to.getTime() - Date.now()) / 1000);
    fs.writeFileSync(file, `${seconds >= 0 ? "+" : ""}${seconds}\n`);
    fs.chmodSync(file, 0o644);
  };
  write(at);
  const server = await spawnServer(
    ["--demo"],
    {
      LD_PRELOAD: lib,
      FAKETIME_TIMESTAMP_FILE: file,
      FAKETIME_CACHE_DURATION: "1",
      FAKETIME_DONT_FAKE_MONOTONIC: "1",
      SESSION_TTL_SECONDS: String(365 * 86_400),
      SESSION_IDLE_SECONDS: String(365 * 86_400),
      ...env,
    },
    { host: "127.0.0.1", port: await freePort() },
    process.env[TEMPLATE_ENV],
  );
  return {
    ...server,
    async moveTo(to: Date) {
      write(to);
      // Each process reads the file again within a second; the database's clock is the one the
      // scheduler reads.
      for (let i = 0; ; i++) {
        const [{ now }] = (await sql(server, "SELECT now() AS now")) as [{ now: Date }];
        if (now.getTime() >= to.getTime() - 5_000) return;
        if (i > 100) throw new Error(`the database's clock reads ${now.toISOString()}, not ${to.toISOString()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    cleanup() {
      server.cleanup();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
