/**
 * The deployment files of deploy/ and what docs/operations.md says about the server stay true:
 * the systemd units pass `systemd-analyze verify`, the example setup file is one that
 * `npm run setup -- --file` accepts, the example environment file reads the same to systemd and
 * to sh, and the metrics and environment variables the documentation names are the ones the
 * server has, both ways.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AssociationSetup, setupProblems } from "@mutua/domain";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const read = (p: string) => fs.readFileSync(path.join(ROOT, p), "utf8");

const UNITS = ["deploy/mutua.service", "deploy/mutua-backup.service", "deploy/mutua-backup.timer"];
const OPERATIONS = read("docs/operations.md");

/** A level-2 section of docs/operations.md, by its heading. */
function section(heading: string): string {
  const start = OPERATIONS.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/operations.md has no section "## ${heading}"`);
  const end = OPERATIONS.indexOf("\n## ", start + 1);
  return OPERATIONS.slice(start, end < 0 ? undefined : end);
}

/** Every TypeScript file of apps/server/src, concatenated. */
function serverSources(): string {
  const dir = path.join(ROOT, "apps/server/src");
  return (fs.readdirSync(dir, { recursive: true, encoding: "utf8" }) as string[])
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
    .join("\n");
}

interface Verified {
  status: number | null;
  /** The lines that name one of the units verified: systemd-analyze's warnings and errors about them. */
  problems: string[];
  output: string;
}

/**
 * `systemd-analyze verify` of unit files. systemd 252 (Debian 12) prints nothing at all for a
 * valid unit, even when its User=, WorkingDirectory= and EnvironmentFile= do not exist on this
 * machine (it resolves none of them), but it does require ExecStart='s program to exist: hence
 * /usr/bin/env npm and /bin/sh in the units. A mistake it does not always make fatal (an unknown
 * key, a value it cannot parse: "…, ignoring") is only printed, with status 0, so every line that
 * names one of the units counts. Lines about other units (the system's own, which it loads as
 * dependencies) are not ours to judge and are left out.
 */
function verify(files: string[]): Verified {
  const r = spawnSync("systemd-analyze", ["verify", ...files], { cwd: ROOT, encoding: "utf8" });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") {
    throw new Error("systemd-analyze is not installed: the units of deploy/ cannot be checked. On Debian: apt-get install systemd");
  }
  if (r.error) throw r.error;
  const output = `${r.stdout}${r.stderr}`;
  const names = files.map((f) => path.basename(f));
  const problems = output.split("\n").filter((line) => names.some((n) => line.includes(n)));
  return { status: r.status, problems, output };
}

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) fs.rmSync(d, { recursive: true, force: true });
});

/** The units copied to a folder of their own, with `edit` applied to one of them. */
function brokenCopy(unit: string, edit: (text: string) => string): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-units-"));
  temps.push(dir);
  for (const u of UNITS) fs.writeFileSync(path.join(dir, path.basename(u)), read(u), { mode: 0o644 });
  const target = path.join(dir, path.basename(unit));
  const before = fs.readFileSync(target, "utf8");
  const after = edit(before);
  if (after === before) throw new Error(`the edit of ${unit} changed nothing: the test no longer breaks what it means to`);
  fs.writeFileSync(target, after);
  return UNITS.map((u) => path.join(dir, path.basename(u)));
}

/** The lines systemd runs of a unit: ExecStart= and its kin. */
const execLines = (unit: string) =>
  read(unit)
    .split("\n")
    .filter((l) => /^Exec\w*=/.test(l));

// systemd-analyze is Linux's (Debian always has it); elsewhere there is nothing to run.
describe.skipIf(process.platform !== "linux")("the systemd units of deploy/", () => {
  it("pass systemd-analyze verify without a word", () => {
    const r = verify(UNITS);
    expect({ status: r.status, problems: r.problems }, r.output).toEqual({ status: 0, problems: [] });
  });

  it("fail it when a directive is wrong, so that the check above means something", () => {
    const mistakes: [string, (t: string) => string][] = [
      ["deploy/mutua.service", (t) => t.replace("Restart=on-failure", "Restart=sometimes")],
      ["deploy/mutua.service", (t) => t.replace("NoNewPrivileges=yes", "NoNewPrivilege=yes")],
      ["deploy/mutua.service", (t) => t.replace("ExecStart=/usr/bin/env npm", "ExecStart=npmm")],
      ["deploy/mutua-backup.service", (t) => t.replace("Type=oneshot", "Type=once")],
      ["deploy/mutua-backup.timer", (t) => t.replace("Persistent=true", "Persistant=true")],
      ["deploy/mutua-backup.timer", (t) => t.replace(/^OnCalendar=.*$/m, "OnCalendar=nightly")],
    ];
    for (const [unit, edit] of mistakes) {
      const r = verify(brokenCopy(unit, edit));
      expect(r.problems.length, `${unit}, broken, passed:\n${r.output}`).toBeGreaterThan(0);
    }
  });
});

describe("the deployment files", () => {
  it("leave nothing in a command line for systemd to expand: % is written %% and $ is written $$", () => {
    // systemd reads %Y or $NAME in ExecStart= itself, before sh sees the line, and verify says
    // nothing: %Y is the unit file's folder, so `date +%Y` would quietly name backups /etc/systemd/….
    for (const unit of UNITS) {
      for (const line of execLines(unit)) {
        const rest = line.replaceAll("%%", "").replaceAll("$$", "");
        expect(rest, `${unit}: ${line}`).not.toMatch(/[%$]/);
      }
    }
    expect(execLines("deploy/mutua-backup.service").join("\n")).toContain("npm run backup -- ");
  });

  it("name the Node.js that npm run serve fetches into .tools/", async () => {
    // @ts-expect-error: plain JavaScript without declarations (it runs before npm ci)
    const { FETCHED_NODE } = (await import("./lib.mjs")) as { FETCHED_NODE: string };
    const named = ["deploy/mutua-backup.service", "docs/operations.md"].flatMap((f) =>
      [...read(f).matchAll(/\.tools\/node-v([\w.]+?)\/bin/g)].map((m) => `${f}: ${m[1]}`),
    );
    expect(named.length).toBeGreaterThan(0);
    expect(named).toEqual(named.map((n) => n.replace(/: .*$/, `: ${FETCHED_NODE}`)));
  });

  it("ship an association.example.json that npm run setup accepts", () => {
    const parsed = AssociationSetup.safeParse(JSON.parse(read("deploy/association.example.json")));
    expect(parsed.success ? [] : setupProblems(parsed.error)).toEqual([]);
  });

  it("ship a mutua.env that systemd and sh read alike, naming only documented variables", () => {
    const documented = documentedVariables().join(" ");
    const problems: string[] = [];
    read("deploy/mutua.env")
      .split("\n")
      .forEach((line, i) => {
        const at = `deploy/mutua.env:${i + 1}`;
        if (line.trim() === "" || (line.startsWith("#") && !/^#[A-Z][A-Z0-9_]*=/.test(line))) return;
        const m = /^#?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
        if (!m) return void problems.push(`${at}: not NAME=value`);
        // Unquoted without spaces, or in double quotes; never what sh would expand or unescape.
        if (!/^("[^"$`\\]*"|[^\s"'$`\\]*)$/.test(m[2]!)) problems.push(`${at}: ${m[1]}'s value would read differently to sh and to systemd`);
        if (!new RegExp(`\\b${m[1]}\\b`).test(documented)) problems.push(`${at}: ${m[1]} is not in docs/operations.md's environment table`);
      });
    expect(problems).toEqual([]);
  });
});

/** The names of the environment table of docs/operations.md ("RATE_LIMIT_<NAME>_MAX" as written). */
function documentedVariables(): string[] {
  return section("Server environment")
    .split("\n")
    .filter((l) => l.startsWith("| `"))
    .flatMap((l) => [...l.split("|")[1]!.matchAll(/`([A-Z][A-Z0-9_<>]*)`/g)].map((m) => m[1]!));
}

describe("docs/operations.md", () => {
  it("documents environment variables the server reads, and every one it reads", () => {
    const sources = serverSources();
    const documented = documentedVariables();
    expect(documented.length).toBeGreaterThan(20);
    // A placeholder (RATE_LIMIT_<NAME>_MAX) stands for names the code builds: its fixed parts are in the code.
    const missing = documented.filter((v) => v.split(/<[A-Z]+>/).some((part) => part !== "" && !sources.includes(part)));
    expect(missing, "documented, but nowhere in apps/server/src").toEqual([]);
    const readByServer = new Set([...sources.matchAll(/\benv\??\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!));
    // INIT_CWD is npm's, telling a command where it was typed: nothing for an operator to set.
    readByServer.delete("INIT_CWD");
    const patterns = documented.map((v) => new RegExp(`^${v.replace(/<[A-Z]+>/g, "[A-Z_]+")}$`));
    const undocumented = [...readByServer].filter((v) => !patterns.some((p) => p.test(v)));
    expect(undocumented, "read by the server, but not in the environment table").toEqual([]);
  });

  it("documents the metrics the server has, and every one it has", () => {
    const metricsSource = read("apps/server/src/http/metrics.ts");
    const defined = [...metricsSource.matchAll(/name: "(mutua_[a-z0-9_]+)"/g)].map((m) => m[1]!);
    expect(defined.length).toBeGreaterThan(10);
    const monitoring = section("Monitoring");
    const tabled = monitoring
      .split("\n")
      .filter((l) => l.startsWith("| `mutua_"))
      .map((l) => /`(mutua_[a-z0-9_]+)`/.exec(l)![1]!);
    expect([...tabled].sort(), "the metrics table against apps/server/src/http/metrics.ts").toEqual([...defined].sort());
    // Any name used elsewhere (the alerts' expressions), a histogram's series included.
    const unknown = [...new Set([...OPERATIONS.matchAll(/\bmutua_[a-z0-9_]+/g)].map((m) => m[0]))].filter(
      (n) => !defined.includes(n) && !defined.includes(n.replace(/_(bucket|sum|count)$/, "")),
    );
    expect(unknown, "metric names in docs/operations.md that the server does not have").toEqual([]);
    // prom-client's own metrics, named as prom-client names them.
    const promClient = path.dirname(createRequire(path.join(ROOT, "apps/server/package.json")).resolve("prom-client"));
    const promSources = fs
      .readdirSync(path.join(promClient, "lib/metrics"))
      .filter((f) => f.endsWith(".js"))
      .map((f) => fs.readFileSync(path.join(promClient, "lib/metrics", f), "utf8"))
      .join("\n");
    const processNames = [...new Set([...OPERATIONS.matchAll(/\b(?:nodejs|process)_[a-z0-9_]+/g)].map((m) => m[0]))];
    expect(processNames.filter((n) => !promSources.includes(`'${n}'`) && !promSources.includes(`"${n}"`))).toEqual([]);
  });
});
