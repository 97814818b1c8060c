import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { expectTitle, launchBrowser, newPage, toastText } from "./support/browser";
import { startMailbox, type Mailbox } from "./support/mailbox";
import { freePort, serveOn, sql, type RunningServer } from "./support/server";
import { auditEntry, giveRights, openConsole, openMember } from "./pages/admin";
import { choosePasswordFromLink } from "./pages/association";
import { currencyFigures, openFigures } from "./pages/board";
import { confirmEmail, mailedLink, openSignIn, openSignUp, signInButton, signInToDashboard, signUp } from "./pages/members";

/**
 * A new association starts on Mutua as its volunteer would start it: `npm run setup` on an empty
 * data folder (from a file, and from questions in a terminal), then `npm run serve`; no SQL.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const FLORAIN = {
  association: { name: "Le Florain" },
  currency: { name: "Florain", symbol: "FLO" },
  backends: { custodial: { topUpMin: "5", topUpMax: "500" }, ledger: { floor: "-100", ceiling: "1000", topUpMin: "5", topUpMax: "500" } },
  topUps: true,
  reconversions: true,
  bank: { iban: "FR76 3000 6000 0112 3456 7890 189", bic: "AGRIFRPP", holder: "" },
  administrator: { firstName: "Ada", lastName: "Lovelace", email: "ada@florain.example" },
};
const NEW_PASSWORD = "Florain-2026!";

let mailbox: Mailbox;
let browser: Browser;
const folders: string[] = [];
const servers: RunningServer[] = [];
beforeAll(async () => {
  [mailbox, browser] = await Promise.all([startMailbox(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  for (const s of servers) await s.stop();
  await mailbox?.close();
  for (const dir of folders) {
    stopPostgres(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

function dataFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-e2e-setup-"));
  folders.push(dir);
  return dir;
}

/** A cluster a killed setup left running in its folder, stopped as its operator would. */
function stopPostgres(dir: string) {
  const pidFile = path.join(dir, "pg", "postmaster.pid");
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
  try {
    process.kill(pid, "SIGINT");
  } catch {
    /* gone */
  }
}

/**
 * `npm run setup -- <args>` as an operator types it, without a terminal. Not spawnSync: the
 * test's SMTP server, in this process, must answer while it runs.
 */
function npmSetup(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn("npm", ["run", "setup", "--silent", "--", ...args], {
    cwd: ROOT,
    env: { ...process.env, HOST: "127.0.0.1", LOG_LEVEL: "silent", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.once("exit", (status) => resolve({ status, stdout, stderr })));
}

async function counts(dir: string) {
  const [row] = (await sql(
    { dataDir: dir },
    `SELECT (SELECT count(*)::int FROM association) AS association, (SELECT count(*)::int FROM currencies) AS currencies,
       (SELECT count(*)::int FROM backends) AS backends, (SELECT count(*)::int FROM wallets) AS wallets,
       (SELECT count(*)::int FROM members) AS members, (SELECT count(*)::int FROM password_resets) AS links`,
  )) as Record<string, number>[];
  return row!;
}

const linkIn = (text: string) => /(http:\/\/\S+\/reset-password\?token=[\w-]+)/.exec(text)?.[1];

describe("npm run setup", () => {
  it("serve on an empty folder says setup is needed; setup from a file (Le Florain, both backends) while it runs; the administrator's link arrives, she signs in, gives a member the board's right, and he opens the figures", async () => {
    const dir = dataFolder();
    const port = await freePort();
    const env = { DATA_DIR: dir, SMTP_URL: mailbox.url, PUBLIC_URL: `http://127.0.0.1:${port}`, MAIL_FROM: "Le Florain <noreply@florain.example>" };

    // `npm run serve` on nothing: it starts, and says in its log and on its first page what to run.
    const server = await serveOn(dir, port, { SMTP_URL: mailbox.url, MAIL_FROM: env.MAIL_FROM });
    servers.push(server);
    // Printed after the line that says it runs, perhaps in a later chunk of its output.
    await expect.poll(() => server.output()).toContain("This association is not set up yet: there is no currency and no administrator.");
    const visitor = await newPage(browser);
    await visitor.page.goto(server.url);
    await visitor.page.getByRole("heading", { name: "Not set up yet" }).waitFor();
    await visitor.page.getByText("npm run setup", { exact: true }).waitFor();

    // A bad file first: every problem with its place, and nothing written.
    const bad = path.join(dir, "bad.json");
    fs.writeFileSync(bad, JSON.stringify({ ...FLORAIN, currency: { name: "Florain", symbol: "F L O" }, backends: {} }));
    const refused = await npmSetup(["--file", bad], env);
    expect(refused.status, refused.stdout + refused.stderr).toBe(1);
    expect(refused.stderr).toContain("currency.symbol: The currency's symbol cannot hold spaces.");
    expect(refused.stderr).toContain("backends: At least one backend is needed: custodial, ledger or both.");
    expect(await counts(dir)).toEqual({ association: 0, currencies: 0, backends: 0, wallets: 0, members: 0, links: 0 });

    const file = path.join(dir, "association.json");
    fs.writeFileSync(file, JSON.stringify(FLORAIN, null, 2));
    const done = await npmSetup(["--file", file], env);
    expect(done.status, done.stdout + done.stderr).toBe(0);
    expect(done.stdout).toContain("Backend ledger:florain: mutual credit from -100.00 FLO to 1000.00 FLO");
    const mail = await mailbox.next("ada@florain.example");
    expect(mail.subject).toBe("Le Florain is ready on Mutua: choose your password");
    const link = linkIn(mail.text ?? "");
    expect(link).toBeDefined();
    // The page left open turns into the sign-in by itself: the server saw the association at once.
    // It bears the association's name, in its heading and its title, from the page the server sends.
    await visitor.page.getByRole("heading", { name: "Le Florain" }).waitFor({ timeout: 15_000 });
    await signInButton(visitor.page).waitFor();
    await expectTitle(visitor.page, "Le Florain - Login");
    expect(await (await fetch(server.url)).text()).toContain("<title>Le Florain</title>");
    expect((await (await fetch(`${server.url}/config.json`)).json()).appName).toBe("Le Florain");

    // Run again with the same answers: nothing changes, and nothing is sent.
    const again = await npmSetup(["--file", file], env);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain("This association is already set up with these answers; nothing was changed");
    expect(await counts(dir)).toMatchObject({ association: 1, currencies: 1, backends: 2, wallets: 4, members: 1 });
    // A provisioning script runs it again after the owners changed a setting: it succeeds, changes
    // nothing, and says what no longer holds; the file's bad keys are named with the good ones.
    await sql(server, "UPDATE currencies SET symbol = 'FLR'");
    const provisioned = await npmSetup(["--file", file], env);
    expect(provisioned.status, provisioned.stdout + provisioned.stderr).toBe(0);
    expect(provisioned.stdout).toContain("This association is already set up; nothing was changed.");
    expect(provisioned.stdout).toContain("  Currency: Florain (FLO)");
    await sql(server, "UPDATE currencies SET symbol = 'FLO'");
    fs.writeFileSync(bad, JSON.stringify({ ...FLORAIN, backends: { blockchain: {} } }));
    const unknownKind = await npmSetup(["--file", bad], env);
    expect(unknownKind.status).toBe(1);
    expect(unknownKind.stderr).toContain('backends: Unrecognized key "blockchain"; the kinds of backend are custodial, ledger.');

    // Ada chooses her password from the link, then signs in.
    const ada = await newPage(browser);
    // Her first password: the page says so (not "a new password").
    await choosePasswordFromLink(ada.page, link!, NEW_PASSWORD, { first: true });
    await signInToDashboard(ada.page, server.url, "ada@florain.example", NEW_PASSWORD);
    // The link worked once.
    const reused = await fetch(`${server.url}/api/auth/new-password`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: new URL(link!).searchParams.get("token"), password: "Another-2026!" }),
    });
    expect(reused.status).toBe(400);

    // A member signs up (sign-up is open once the association exists).
    const paul = await newPage(browser);
    await openSignIn(paul.page, server.url);
    await openSignUp(paul.page);
    await signUp(paul.page, { email: "paul@florain.example", first: "Paul", last: "Marchand", password: "Paul-2026!x" });
    await signInButton(paul.page).waitFor();
    // He opens the link mailed to confirm his address, then signs in.
    const confirmation = await mailbox.next("paul@florain.example");
    await confirmEmail(paul.page, mailedLink(confirmation, "/confirm-email")!, server.url);
    await signInToDashboard(paul.page, server.url, "paul@florain.example", "Paul-2026!x");

    // Ada gives Paul the board's right, with her password asked again.
    await openMember(ada.page, "marchand", "Paul Marchand");
    await giveRights(ada.page, "Paul Marchand", ["Board"], NEW_PASSWORD);
    await toastText(ada.page, "The rights of Paul Marchand are saved");
    const told = await mailbox.next("paul@florain.example");
    expect(told.subject).toBe("Your rights in the association changed");
    await openConsole(ada.page);
    // Ada holds every right alone: the console tells her, who is concerned.
    await ada.page.getByText("Only one administrator can validate accounts", { exact: false }).waitFor();
    // The entry says what changed, as the member's page names the rights.
    const rightsEntry = auditEntry(ada.page, "Rights changed", "Paul Marchand");
    await rightsEntry.getByText("Board: off → on").waitFor();
    // Setup's own entry ran from the command line: no member did it.
    await auditEntry(ada.page, "Association set up", "by the server's operator").waitFor();

    // Her own rights: refused (403), nothing changed; she is the only owner, so nobody can take hers.
    const [me] = (await sql(server, "SELECT id::text FROM members WHERE email = 'ada@florain.example'")) as { id: string }[];
    const own = await ada.page.evaluate(
      async ({ id, password }) =>
        (
          await fetch(`/api/admin/members/${id}/rights`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ rights: { accounts: true, credits: true, board: true, owner: false }, password }),
          })
        ).status,
      { id: me!.id, password: NEW_PASSWORD },
    );
    expect(own).toBe(403);
    expect(await sql(server, "SELECT count(*)::int AS n FROM members WHERE can_manage_association")).toEqual([{ n: 1 }]);

    // Paul, signed in before, opens the figures of the Florain: his right applies to his open session.
    await openFigures(paul.page);
    await currencyFigures(paul.page, "Florain");
    // The board alone can do nothing about a right with a single holder: Paul is not told of it.
    expect(await paul.page.getByText("Only one administrator", { exact: false }).count()).toBe(0);
    expect([...visitor.errors, ...ada.errors, ...paul.errors]).toEqual([]);
  }, 240_000);

  it("from questions in a terminal: a wrong answer is asked again with its reason; killed mid-way it leaves an empty database; answered to the end it sets up", async () => {
    const dir = dataFolder();
    const env = { DATA_DIR: dir, PUBLIC_URL: "http://127.0.0.1:9", MAIL_FROM: "Mutua <noreply@example.org>" };

    // Answered up to the last question, with the table setup writes last held by another session,
    // so that the kill falls inside setup's transaction, after its first rows are written.
    const first = terminal(env);
    await first.answer("The association's name", "Les Amis du Sol");
    const { default: pg } = await import("pg");
    const { databaseUrl } = await import("./support/server");
    const blocker = new pg.Client({ connectionString: databaseUrl({ dataDir: dir }) });
    await blocker.connect();
    try {
      await blocker.query("BEGIN");
      await blocker.query("LOCK TABLE password_resets IN ACCESS EXCLUSIVE MODE");
      await answerTheRest(first);
      await first.answer("Set it up now?", "yes");
      await until(async () => (await blocker.query("SELECT 1 FROM pg_locks WHERE relation = 'password_resets'::regclass AND NOT granted")).rowCount === 1);
      first.kill();
      await blocker.query("ROLLBACK");
      await until(async () => (await blocker.query("SELECT 1 FROM pg_locks WHERE relation = 'password_resets'::regclass AND NOT granted")).rowCount === 0);
    } finally {
      await blocker.end();
    }
    expect(await counts(dir)).toEqual({ association: 0, currencies: 0, backends: 0, wallets: 0, members: 0, links: 0 });

    // Again, to the end.
    const second = terminal(env);
    await second.answer("The association's name", "Les Amis du Sol");
    await answerTheRest(second);
    // Before the one question that writes, every choice is recapped.
    for (const line of [
      "The association to set up:",
      "Association: Les Amis du Sol",
      "Currency: Sol (SOL)",
      "Backend custodial:sol: top-ups from 5.00 SOL to 500.00 SOL",
      "Backend ledger:sol: mutual credit from -50.00 SOL, no ceiling; top-ups from 5.00 SOL to 500.00 SOL",
      "Top-ups on, reconversions on",
      "Bank account: IBAN FR7630006000011234567890189, BIC AGRIFRPP, holder Les Amis du Sol",
      "First administrator: Bea Sol <bea@sol.example>",
    ])
      await second.waitFor(line);
    await second.answer("Set it up now?", "");
    await second.waitFor("✓ The association is set up:");
    expect(await second.exit).toBe(0);
    expect(second.output()).toContain("Backend ledger:sol: mutual credit from -50.00 SOL, no ceiling");
    expect(await counts(dir)).toMatchObject({ association: 1, currencies: 1, backends: 2, wallets: 4, members: 1, links: 1 });
    // The link was written to the outbox (no SMTP_URL), where the operator finds it.
    const outbox = fs.readdirSync(path.join(dir, "outbox"));
    expect(outbox).toHaveLength(1);
  }, 240_000);
});

/** The questions after the first, with one wrong answer re-asked. */
async function answerTheRest(t: Terminal) {
  await t.answer("The currency's name", "Sol");
  await t.answer("The currency's symbol", "S O L");
  await t.waitFor("✗ The currency's symbol cannot hold spaces. Try again.");
  await t.answer("The currency's symbol", "SOL");
  await t.answer("Backends:", "");
  await t.answer("Custodial: the smallest top-up", "");
  await t.answer("Custodial: the largest top-up", "");
  await t.answer("Ledger: the mutual-credit floor", "-50");
  await t.answer("Ledger: the mutual-credit ceiling", "none");
  await t.answer("Ledger: the smallest top-up", "");
  await t.answer("Ledger: the largest top-up", "");
  await t.answer("Can members top up", "");
  await t.answer("Can shops reconvert", "");
  await t.answer("IBAN", "FR76 3000 6000 0112 3456 7890 189");
  await t.answer("BIC", "AGRIFRPP");
  await t.answer("Account holder", "");
  await t.answer("First name", "Bea");
  await t.answer("Last name", "Sol");
  await t.answer("E-mail", "bea@sol.example");
}

interface Terminal {
  /** Waits for `prompt` (after the previous answer), then types `text` and Enter. */
  answer(prompt: string, text: string): Promise<void>;
  waitFor(text: string): Promise<void>;
  output(): string;
  kill(): void;
  exit: Promise<number | null>;
}

/**
 * `npm run setup` in a terminal of its own (util-linux's `script` gives it a pseudo-terminal, as
 * an operator's ssh session does); what it prints is read without the terminal's escapes.
 */
function terminal(env: Record<string, string>): Terminal {
  const child: ChildProcess = spawn("script", ["-qfec", "npm run setup --silent", "/dev/null"], {
    cwd: ROOT,
    env: { ...process.env, TERM: "dumb", HOST: "127.0.0.1", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let raw = "";
  let seen = 0;
  child.stdout!.on("data", (d) => (raw += d));
  child.stderr!.on("data", (d) => (raw += d));
  // eslint-disable-next-line no-control-regex
  const text = () => raw.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r/g, "");
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const waitFor = async (wanted: string) => {
    const found = await until(() => text().indexOf(wanted, seen) >= 0, 90_000).catch(() => false);
    if (!found) throw new Error(`"${wanted}" never came; the terminal shows:\n${text()}`);
    seen = text().indexOf(wanted, seen) + wanted.length;
  };
  return {
    async answer(prompt, answer) {
      await waitFor(prompt);
      await waitFor(": ");
      child.stdin!.write(`${answer}\r`);
    },
    waitFor,
    output: text,
    kill() {
      // Every process the terminal runs (npm, its node, setup's node), at once, as a power cut would.
      for (const pid of descendants(child.pid!)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          /* gone */
        }
      }
    },
    exit,
  };
}

/** The node processes under `root` (not PostgreSQL, whose cluster setup started and leaves running). */
function descendants(root: number): number[] {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,comm="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .map(([pid, ppid, comm]) => ({ pid: Number(pid), ppid: Number(ppid), comm: comm ?? "" }));
  const out: number[] = [];
  const walk = (p: number) => {
    for (const r of rows.filter((x) => x.ppid === p)) {
      if (r.comm.startsWith("postgres")) continue;
      out.push(r.pid);
      walk(r.pid);
    }
  };
  walk(root);
  return [root, ...out];
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<boolean> {
  for (const end = Date.now() + timeoutMs; ;) {
    if (await check()) return true;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}
