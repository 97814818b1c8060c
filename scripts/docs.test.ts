/**
 * The docs checker: README.md and docs/*.md must not point at things that are not there. It
 * reports every relative Markdown link to a missing file (or, into a .md file, to a heading that
 * does not exist, by GitHub's slug), every backticked repository path (under apps/, packages/,
 * e2e/, bench/, scripts/, docs/, deploy/, .ci/, or a known top-level file) that does not exist,
 * and every `npm run X` (or `npm run X -w <workspace>`) whose script the root or that workspace's
 * package.json does not define. Paths with a placeholder or a glob (`<name>`, `*`) are skipped,
 * and so are paths .gitignore ignores (builds and test output, absent from a fresh clone).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const PATH_PREFIXES = ["apps/", "packages/", "e2e/", "bench/", "scripts/", "docs/", "deploy/", ".ci/"];
const TOP_LEVEL_FILES = new Set([
  "package.json",
  "package-lock.json",
  "vitest.config.ts",
  "tsconfig.base.json",
  ".oxlintrc.json",
  ".prettierrc.json",
  ".prettierignore",
  ".gitignore",
  ".npmrc",
  ".git-blame-ignore-revs",
  "README.md",
]);
/** A placeholder, a glob or an ellipsis: a pattern of paths, not one path. */
const PATTERN = /[<>*?{}[\]…]|\.\.\./;

export interface DocFile {
  /** Repository-relative path, with forward slashes. */
  path: string;
  text: string;
}

export interface Problem {
  file: string;
  line: number;
  message: string;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/<[^>]+>/g, "");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}

/** The text with every fenced code block's lines emptied (line numbers kept). */
function withoutFences(text: string): string {
  let fence: string | null = null;
  return text
    .split("\n")
    .map((line) => {
      const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
      if (fence === null && m) {
        fence = m[1]!;
        return "";
      }
      if (fence !== null) {
        if (m && m[1]!.startsWith(fence) && line.trim() === m[1]) fence = null;
        return "";
      }
      return line;
    })
    .join("\n");
}

/** The anchors of a Markdown file's headings, numbered as GitHub numbers repeated ones. */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of withoutFences(text).split("\n")) {
    const m = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** .gitignore's patterns as a test of a repository path (the simple forms this repository uses). */
function gitignoreMatcher(root: string): (p: string) => boolean {
  const file = path.join(root, ".gitignore");
  const lines = fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n") : [];
  const globToRegExp = (g: string) => new RegExp(`^${g.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`);
  const rules = lines
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#") && !l.startsWith("!"))
    .map((l) => {
      const pattern = l.replace(/\/$/, "");
      const anchored = pattern.includes("/");
      return { re: globToRegExp(pattern.replace(/^\//, "")), anchored };
    });
  return (p) => {
    const segments = p.replace(/\/$/, "").split("/");
    return rules.some(({ re, anchored }) =>
      anchored ? segments.some((_, i) => re.test(segments.slice(0, i + 1).join("/"))) : segments.some((s) => re.test(s)),
    );
  };
}

/** The scripts of the root package.json (workspace undefined) or of a workspace, by folder or name. */
function scriptsReader(root: string): (workspace?: string) => Set<string> | undefined {
  const read = (dir: string) => {
    const file = path.join(root, dir, "package.json");
    if (!fs.existsSync(file)) return undefined;
    return JSON.parse(fs.readFileSync(file, "utf8")) as { name?: string; scripts?: Record<string, string>; workspaces?: string[] };
  };
  const rootPkg = read(".");
  return (workspace) => {
    if (workspace === undefined) return new Set(Object.keys(rootPkg?.scripts ?? {}));
    const ws = workspace.replace(/\/$/, "").replace(/^\.\//, "");
    const dir = (rootPkg?.workspaces ?? []).find((w) => w === ws || read(w)?.name === ws);
    return dir === undefined ? undefined : new Set(Object.keys(read(dir)?.scripts ?? {}));
  };
}

const lineAt = (text: string, index: number) => text.slice(0, index).split("\n").length;

/**
 * Checks Markdown files against the repository at `root`. A link into another file of `files`
 * is resolved against that file's text (so files need not be on disk); any other against the disk.
 */
export function checkDocs(files: DocFile[], root: string = ROOT): Problem[] {
  const problems: Problem[] = [];
  const byPath = new Map(files.map((f) => [f.path, f.text]));
  const exists = (p: string) => byPath.has(p) || fs.existsSync(path.join(root, p));
  const ignored = gitignoreMatcher(root);
  const scripts = scriptsReader(root);
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (p: string) => {
    let a = anchorCache.get(p);
    if (!a) {
      a = anchorsOf(byPath.get(p) ?? fs.readFileSync(path.join(root, p), "utf8"));
      anchorCache.set(p, a);
    }
    return a;
  };

  for (const file of files) {
    const prose = withoutFences(file.text);
    const report = (index: number, message: string, text = prose) => problems.push({ file: file.path, line: lineAt(text, index), message });
    // Code spans, found before links so that a link written inside one is not taken for a link.
    const spans: { index: number; code: string }[] = [];
    const noCode = prose.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (all, _ticks: string, code: string, index: number) => {
      spans.push({ index, code: code.trim() });
      return all.replace(/[^\n]/g, " ");
    });

    // Links and images: [text](target "title"), and reference definitions [label]: target.
    const targets: { index: number; target: string }[] = [];
    for (const m of noCode.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push({ index: m.index, target: m[1]! });
    for (const m of noCode.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) targets.push({ index: m.index, target: m[1]! });
    for (const { index, target } of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue; // http:, mailto:…
      const [rawPath = "", anchor] = target.split("#", 2);
      const resolved = rawPath === "" ? file.path : path.posix.normalize(path.posix.join(path.posix.dirname(file.path), decodeURIComponent(rawPath)));
      if (resolved.startsWith("../")) {
        report(index, `link ${target}: outside the repository`);
        continue;
      }
      if (!exists(resolved)) {
        report(index, `link ${target}: ${resolved} does not exist`);
        continue;
      }
      if (anchor && resolved.endsWith(".md") && !anchors(resolved).has(anchor.toLowerCase())) {
        report(index, `link ${target}: no heading #${anchor} in ${resolved}`);
      }
    }

    // Backticked repository paths.
    for (const { index, code } of spans) {
      if (/\s/.test(code) || PATTERN.test(code)) continue;
      const p = code.replace(/^\.\//, "").replace(/[:#].*$/, "");
      const looksLikePath = (p.includes("/") && PATH_PREFIXES.some((pre) => p.startsWith(pre))) || TOP_LEVEL_FILES.has(p);
      if (!looksLikePath || ignored(p)) continue;
      if (!exists(p.replace(/\/$/, ""))) report(index, `path ${code} does not exist`);
    }

    // npm scripts, everywhere (code blocks included): npm run [-w ws] X [-w ws], npm start, npm test.
    const ws = String.raw`(?:-w|--workspace)[ =]([\w@./-]+)`;
    const runRe = new RegExp(String.raw`\bnpm run\s+(?:--silent\s+)?(?:${ws}\s+)?([A-Za-z0-9][\w:.-]*)(?:\s+${ws})?`, "g");
    for (const m of file.text.matchAll(runRe)) {
      const workspace = (m[1] ?? m[3])?.replace(/[.,;:)`]+$/, "");
      const name = m[2]!.replace(/[.:]+$/, "");
      const known = scripts(workspace);
      if (known === undefined) report(m.index, `npm run ${name} -w ${workspace}: no such workspace`, file.text);
      else if (!known.has(name)) report(m.index, `npm run ${name}: no such script in ${workspace ?? "the root"}'s package.json`, file.text);
    }
    for (const m of file.text.matchAll(/\bnpm (start|test)\b/g)) {
      if (!scripts()?.has(m[1]!)) report(m.index, `npm ${m[1]}: no such script in the root's package.json`, file.text);
    }
  }
  return problems;
}

/** README.md and every docs/*.md, as the checker reads them. */
export function repositoryDocs(root: string = ROOT): DocFile[] {
  const docs = fs
    .readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`);
  return ["README.md", ...docs].map((p) => ({ path: p, text: fs.readFileSync(path.join(root, p), "utf8") }));
}

const show = (ps: Problem[]) => ps.map((p) => `${p.file}:${p.line}: ${p.message}`);

describe("the docs checker", () => {
  it("reports a broken link, a broken anchor, a broken backticked path and an unknown npm script", () => {
    const md = [
      "# Example",
      "",
      "## A section",
      "",
      "See [the spec](spec.md), [this section](#a-section) and [nowhere](no-such-file.md).",
      "Also [a heading that is not there](spec.md#no-such-heading).",
      "The server starts in `apps/server/src/main.ts`, the ghost in `apps/server/src/ghost.ts`.",
      "Patterns are skipped: `apps/web/src/locales/<tag>.po`, `apps/web/src/locales/*.json`; builds too: `apps/web/dist/index.html`.",
      "Run `npm run build -w apps/web`, `npm run lint` and `npm run no-such-script`.",
      "",
      "```sh",
      "npm run bench:nothing   # scripts are checked in code blocks too; `apps/not/checked.ts` here is not",
      "```",
    ].join("\n");
    expect(show(checkDocs([{ path: "docs/example.md", text: md }]))).toEqual([
      "docs/example.md:5: link no-such-file.md: docs/no-such-file.md does not exist",
      "docs/example.md:6: link spec.md#no-such-heading: no heading #no-such-heading in docs/spec.md",
      "docs/example.md:7: path apps/server/src/ghost.ts does not exist",
      "docs/example.md:9: npm run no-such-script: no such script in the root's package.json",
      "docs/example.md:12: npm run bench:nothing: no such script in the root's package.json",
    ]);
  });

  it("makes GitHub's anchors", () => {
    expect(slug("The app's `config.json`")).toBe("the-apps-configjson");
    expect(slug("Existing Lokavaluto clients (lokapi, Monujo)")).toBe("existing-lokavaluto-clients-lokapi-monujo");
    expect(slug("The board: figures, ledger health and the books")).toBe("the-board-figures-ledger-health-and-the-books");
    expect([...anchorsOf("# A\n## B\n```\n# not a heading\n```\n## B\n")]).toEqual(["a", "b", "b-1"]);
  });

  it("names the Node.js that the two commands fetch on an older Node", async () => {
    // @ts-expect-error: plain JavaScript without declarations (it runs before npm ci)
    const { FETCHED_NODE } = (await import("./lib.mjs")) as { FETCHED_NODE: string };
    expect(fs.readFileSync(path.join(ROOT, "README.md"), "utf8")).toContain(`.tools/node-v${FETCHED_NODE}/bin`);
  });

  it("lists the areas in development.md in the order areas.ts declares", async () => {
    const { AREAS } = await import("../packages/domain/src/areas");
    const text = fs.readFileSync(path.join(ROOT, "docs/development.md"), "utf8");
    const section = text.slice(text.indexOf("## Areas"), text.indexOf("## ", text.indexOf("## Areas") + 3));
    const listed = [...section.matchAll(/^\| \d+ \| (\w+) \|/gm)].map((m) => m[1]);
    expect(listed).toEqual([...AREAS]);
  });

  it("finds nothing broken in README.md and docs/*.md", () => {
    expect(show(checkDocs(repositoryDocs()))).toEqual([]);
  });
});
