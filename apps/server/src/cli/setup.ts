import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { AssociationSetup, formatCents, resolveConfig, setupFields, setupProblems, type AssociationSetupInput } from "@mutua/domain";
import { z } from "zod";
import { migrate } from "../db/migrate";
import { createPool } from "../db/pool";
import { readSettings } from "../settings";
import { readAssociation } from "../services/association/association";
import { describeAssociation, describeSetup, setUpAssociation } from "../services/association/setup";
import { configuredMailer } from "../services/platform/mail";
import { openTarget } from "./target";
import { readConfigFile } from "../web";

/**
 * `npm run setup`: starts the association on the configured database (DATABASE_URL, or the
 * embedded one in DATA_DIR), from questions asked in the terminal or, with `--file <path>`, from
 * a JSON file (its format: docs/operations.md, "First setup"). Everything is checked before the
 * database is written, and written in one transaction: a refusal or an interruption leaves
 * nothing. The first administrator gets an e-mail with a link to choose their password.
 */
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const fileAt = args.indexOf("--file");
  const file = fileAt >= 0 ? args[fileAt + 1] : undefined;
  if (fileAt >= 0 && !file) return fail("--file needs the path of a JSON file: npm run setup -- --file association.json");

  // A file is checked in full before anything is opened: every problem at once, with where it is.
  let fromFile: AssociationSetup | undefined;
  if (file) {
    const parsed = readSetupFile(path.resolve(process.env.INIT_CWD ?? process.cwd(), file));
    if (!parsed.ok) {
      console.error(`✗ ${file} cannot be used; nothing was written:`);
      for (const p of parsed.problems) console.error(`  - ${p}`);
      return 1;
    }
    fromFile = parsed.setup;
  }

  const settings = readSettings();
  const target = await openTarget();
  const db = createPool(target.url, 2);
  try {
    await migrate(target.url);
    let setup = fromFile;
    if (!setup) {
      // Asked only of a database that has no association: one that has is described and left alone.
      const existing = await readAssociation(db);
      if (existing) return report("exists", await describeAssociation(db, existing), false);
      console.log(`Setting up a new association on ${target.label}.`);
      console.log("Press Enter to take the answer in brackets; Ctrl-C stops without writing anything.\n");
      const asked = await ask();
      if (!asked) {
        console.log("\nSetup stopped: nothing was written.");
        return 1;
      }
      setup = asked;
    }
    // The first administrator is written to in the association's language, as its members are.
    const outcome = await setUpAssociation(db, settings, setup, resolveConfig(readConfigFile(settings)).locales.defaultLanguage);
    if (outcome.kind === "changedSince") return reportChangedSince(outcome.summary, outcome.differences);
    if (outcome.kind !== "created") return report(outcome.kind, outcome.summary, Boolean(fromFile));
    console.log("\n✓ The association is set up:");
    for (const line of outcome.summary) console.log(`  ${line}`);
    const mailer = configuredMailer(settings, (m) => console.log(`[mail] ${m}`));
    try {
      await mailer.send(outcome.mail);
      console.log(`\n${setup.administrator.email} was sent a link to choose their password (valid 7 days, usable once).`);
    } catch (e) {
      console.error(`\n✗ The e-mail to ${setup.administrator.email} could not be sent (${(e as Error).message}).`);
      console.error('  Check SMTP_URL; they can then ask for a new link with "Forgot password ?" on the sign-in page.');
    }
    if (!settings.publicUrlConfigured) console.log(`(The link points to ${settings.publicUrl}: set PUBLIC_URL to the address members use.)`);
    console.log("Start the server with `npm run serve` if it is not running: a running server picks the association up at once.");
    return 0;
  } finally {
    await db.end();
    await target.close();
  }
}

function fail(message: string): number {
  console.error(`✗ ${message}`);
  return 1;
}

/** What is there already; a file that asked for another association (another currency) fails, for the script that ran it. */
function report(kind: "unchanged" | "exists", summary: string[], fromFile: boolean): number {
  console.log(
    kind === "unchanged"
      ? "This association is already set up with these answers; nothing was changed:"
      : "This database already has an association; nothing was changed:",
  );
  for (const line of summary) console.log(`  ${line}`);
  return kind === "exists" && fromFile ? 1 : 0;
}

/**
 * The association the file set up, whose owners have changed its settings since: run again (a
 * provisioning script does, every time), setup succeeds without changing anything, as a tool
 * that brings a machine to a state does when it is there already. Setup starts an association; its
 * owners run it from then on, in Association settings, and setup never undoes what they changed.
 */
function reportChangedSince(summary: string[], differences: string[]): number {
  console.log("This association is already set up; nothing was changed. Its owners have changed its settings since (in Association settings),");
  console.log("and setup leaves them as they are. What the file says that no longer holds:");
  for (const line of differences) console.log(`  ${line}`);
  console.log("The association now:");
  for (const line of summary) console.log(`  ${line}`);
  return 0;
}

export type SetupFileResult = { ok: true; setup: AssociationSetup } | { ok: false; problems: string[] };

/** Reads and checks a setup file: every problem with its place in the file. */
export function readSetupFile(file: string): SetupFileResult {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    return { ok: false, problems: [(e as NodeJS.ErrnoException).code === "ENOENT" ? `${file} does not exist` : `not JSON: ${(e as Error).message}`] };
  }
  const parsed = AssociationSetup.safeParse(raw);
  return parsed.success ? { ok: true, setup: parsed.data } : { ok: false, problems: setupProblems(parsed.error) };
}

/** The questions, each asked again with its reason until its answer is right; null if input ended. */
async function ask(): Promise<AssociationSetup | null> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: Boolean(process.stdin.isTTY) });
  // Lines are queued as they come: answers piped in all at once wait for their question.
  const lines: string[] = [];
  let waiting: ((line: string | null) => void) | null = null;
  let ended = false;
  rl.on("line", (line) => (waiting ? (waiting(line), (waiting = null)) : lines.push(line)));
  rl.on("close", () => {
    ended = true;
    waiting?.(null);
  });
  // Ctrl-C while asking: nothing was written yet.
  rl.on("SIGINT", () => rl.close());
  const nextLine = (prompt: string) => {
    process.stdout.write(prompt);
    if (lines.length > 0) return Promise.resolve(lines.shift()!);
    if (ended) return Promise.resolve(null);
    return new Promise<string | null>((resolve) => (waiting = resolve));
  };
  const question = async <S extends z.ZodType<unknown, string>>(label: string, schema: S, fallback = "", check?: (v: z.output<S>) => string | null) => {
    for (;;) {
      const typed = await nextLine(`${label}${fallback ? ` [${fallback}]` : ""}: `);
      if (typed === null) throw new Ended();
      // Piped answers are not echoed by a terminal: shown, the transcript reads as a dialogue.
      if (!process.stdin.isTTY) process.stdout.write(`${typed}\n`);
      const answer = typed.trim() === "" ? fallback : typed;
      const parsed = schema.safeParse(answer);
      const problem = parsed.success ? (check?.(parsed.data as z.output<S>) ?? null) : (parsed.error.issues[0]?.message ?? "Not a valid answer.");
      if (problem === null) return { text: answer, value: parsed.data as z.output<S> };
      console.log(`  ✗ ${problem} Try again.`);
    }
  };
  const yesNo = async (label: string, fallback: boolean) => {
    for (;;) {
      const { text } = await question(label, free, fallback ? "yes" : "no");
      if (/^(y|yes|o|oui)$/i.test(text.trim())) return true;
      if (/^(n|no|non)$/i.test(text.trim())) return false;
      console.log("  ✗ Answer yes or no. Try again.");
    }
  };
  try {
    const association = await question("The association's name", setupFields.associationName);
    const currencyName = await question("The currency's name", setupFields.currencyName);
    const symbol = await question("The currency's symbol (shown after amounts)", setupFields.currencySymbol);
    const kinds = await question("Backends: custodial (held by the server), ledger (signed on members' devices) or both", free, "both", (v) =>
      ["custodial", "ledger", "both"].includes(v.toLowerCase()) ? null : "Answer custodial, ledger or both.",
    );
    const which = kinds.value.toLowerCase();
    const backends: AssociationSetupInput["backends"] = {};
    const bounds = async (kind: string) => {
      const min = await question(`  ${kind}: the smallest top-up (${symbol.value})`, setupFields.topUpAmount, "5");
      const max = await question(`  ${kind}: the largest top-up (${symbol.value})`, setupFields.topUpAmount, "500", (v) =>
        v >= min.value ? null : `The largest top-up is at least the smallest (${formatCents(min.value)}).`,
      );
      return { topUpMin: min.text, topUpMax: max.text };
    };
    if (which !== "ledger") backends.custodial = await bounds("Custodial");
    if (which !== "custodial") {
      const floor = await question(`  Ledger: the mutual-credit floor, how far below 0 a member may go (${symbol.value})`, setupFields.floor, "-100");
      const ceiling = await question(`  Ledger: the mutual-credit ceiling (${symbol.value}; "none" for no ceiling)`, free, "1000", (v) =>
        /^none$/i.test(v) || setupFields.ceiling.safeParse(v).success ? null : (setupFields.ceiling.safeParse(v).error?.issues[0]?.message ?? null),
      );
      backends.ledger = { floor: floor.text, ceiling: /^none$/i.test(ceiling.value) ? null : ceiling.value, ...(await bounds("Ledger")) };
    }
    const topUps = await yesNo("Can members top up their accounts (by bank transfer)?", true);
    const reconversions = await yesNo("Can shops reconvert their units into euros?", true);
    console.log("The association's bank account, shown to members who top up by transfer:");
    const iban = await question("  IBAN", setupFields.iban, "", (v) => (topUps && v === "" ? "Top-ups are paid by transfer: the IBAN is needed." : null));
    const bic = await question("  BIC", setupFields.bic);
    const holder = await question("  Account holder", setupFields.holder, association.value);
    console.log("The first administrator (they receive a link by e-mail to choose their password):");
    const firstName = await question("  First name", setupFields.firstName);
    const lastName = await question("  Last name", setupFields.lastName);
    const email = await question("  E-mail", setupFields.email);
    const input: AssociationSetupInput = {
      association: { name: association.text },
      currency: { name: currencyName.text, symbol: symbol.text },
      backends,
      topUps,
      reconversions,
      bank: { iban: iban.text, bic: bic.text, holder: holder.text },
      administrator: { firstName: firstName.text, lastName: lastName.text, email: email.text },
    };
    const parsed = AssociationSetup.safeParse(input);
    if (!parsed.success) {
      for (const p of setupProblems(parsed.error)) console.log(`  ✗ ${p}`);
      return null;
    }
    // Every choice made, before the one question that writes them.
    console.log("\nThe association to set up:");
    for (const l of describeSetup(parsed.data)) console.log(`  ${l}`);
    return (await yesNo("Set it up now?", true)) ? parsed.data : null;
  } catch (e) {
    if (e instanceof Ended) return null;
    throw e;
  } finally {
    rl.close();
  }
}

class Ended extends Error {}

/** An answer taken as typed (a choice, checked by the question itself). */
const free = z.string();

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`✗ ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
