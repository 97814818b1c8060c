import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The house's shape in numbers a reviewer would count: no source file grows past what one reader
 * holds in mind. A file that needs more is two things: split it where its parts meet (a table of
 * its own, a fixtures module, a second test file).
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const MAX_LINES = 600;

/** The repository's TypeScript and JavaScript sources, as git tracks them (builds and output excluded). */
function sources(): string[] {
  return execFileSync("git", ["ls-files", "-z", "*.ts", "*.tsx", "*.mjs", "*.js"], { cwd: ROOT, encoding: "utf8" })
    .split("\0")
    .filter((f) => f && fs.existsSync(path.join(ROOT, f)));
}

export function longFiles(files: { path: string; lines: number }[], max = MAX_LINES): string[] {
  return files.filter((f) => f.lines > max).map((f) => `${f.path}: ${f.lines} lines`);
}

/**
 * A test that sleeps a fixed time before checking something waits too long on a quiet machine and
 * too little on a loaded one, and a check that something did NOT happen passes whether or not the
 * sleep was long enough. A test waits on a condition instead (a poll, an event, the work's own
 * "done"); a short poll interval or a deadline is not a sleep.
 */
const MAX_SLEEP_MS = 100;

/** The tests and what only tests run: every test file, the end-to-end page models and support, the server tests' helpers. */
function testFiles(): string[] {
  const specs = ["apps", "packages", "e2e", "scripts", "bench"].flatMap((d) => [`:(glob)${d}/**/*.test.ts`, `:(glob)${d}/**/*.test.tsx`]);
  specs.push(":(glob)e2e/pages/*.ts", ":(glob)e2e/support/*.ts", ":(glob)apps/server/test/**/*.ts");
  const files = execFileSync("git", ["ls-files", "-z", "--", ...specs], { cwd: ROOT, encoding: "utf8" }).split("\0");
  return [...new Set(files)].filter((f) => f && fs.existsSync(path.join(ROOT, f)));
}

/**
 * The source with its comments, strings, template texts and regular expressions blanked out
 * (spaces, newlines kept), so that only code is searched and every offset is the source's; and
 * where its template texts are, which may be code of their own (a page's script run in a browser).
 */
function lex(src: string): { code: string; texts: [number, number][] } {
  const out = src.split("");
  const texts: [number, number][] = [];
  const blank = (from: number, to: number) => {
    for (let k = from; k < to && k < out.length; k++) if (out[k] !== "\n") out[k] = " ";
  };
  /** For each template expression open, the brace depth its closing brace brings back. */
  const templates: number[] = [];
  let depth = 0;
  let last = ""; // the last character of code, to tell a regular expression from a division
  let i = 0;
  /** Reads template text from `i` (just past a backtick or an expression's brace) to its end or next expression. */
  const template = () => {
    const start = i;
    while (i < src.length && src[i] !== "`" && !(src[i] === "$" && src[i + 1] === "{")) i += src[i] === "\\" ? 2 : 1;
    blank(start, i);
    texts.push([start, i]);
    if (src[i] === "$") {
      templates.push(depth++);
      i += 2;
      last = "{";
    } else {
      i++;
      last = "`";
    }
  };
  while (i < src.length) {
    const c = src[i]!;
    const next = src[i + 1];
    if (c === "/" && next === "/") {
      const end = src.indexOf("\n", i);
      blank(i, end < 0 ? src.length : end);
      i = end < 0 ? src.length : end;
    } else if (c === "/" && next === "*") {
      const end = src.indexOf("*/", i + 2);
      blank(i, end < 0 ? src.length : end + 2);
      i = end < 0 ? src.length : end + 2;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < src.length && src[j] !== c && src[j] !== "\n") j += src[j] === "\\" ? 2 : 1;
      blank(i + 1, j);
      i = j + 1;
      last = c;
    } else if (c === "`") {
      i++;
      template();
    } else if (
      c === "/" &&
      (last === "" || "(,=:[!&|?{};+-*%<>~^".includes(last) || /\b(return|typeof|case|in|of|await|yield)\s*$/.test(src.slice(Math.max(0, i - 12), i)))
    ) {
      // A regular expression: to its closing slash outside a character class, then its flags.
      let j = i + 1;
      let inClass = false;
      while (j < src.length && src[j] !== "\n" && (inClass || src[j] !== "/")) {
        if (src[j] === "[") inClass = true;
        else if (src[j] === "]") inClass = false;
        j += src[j] === "\\" ? 2 : 1;
      }
      blank(i + 1, j);
      i = j + 1;
      while (i < src.length && /[a-z]/.test(src[i]!)) i++;
      last = "/";
    } else {
      if (c === "{") depth++;
      else if (c === "}") {
        depth--;
        if (templates.length && templates[templates.length - 1] === depth) {
          templates.pop();
          i++;
          template();
          continue;
        }
      }
      if (!/\s/.test(c)) last = c;
      i++;
    }
  }
  return { code: out.join(""), texts };
}

/**
 * The fixed sleeps over `max` ms in a test file: `waitForTimeout(N)`, and a timer that resolves a
 * promise and nothing else (`new Promise((r) => setTimeout(r, N))`, `setTimeout(resolve, N)` in a
 * promise's executor, timers/promises' `setTimeout(N)`), unless that promise is a deadline raced
 * against the work (`Promise.race([work, new Promise((r) => setTimeout(r, N))])`). N is a number, a
 * product of numbers, or a constant of the file set to one; a delay computed at run time is not
 * judged.
 */
export function fixedSleeps(file: string, src: string, max = MAX_SLEEP_MS, firstLine = 1): string[] {
  const { code, texts } = lex(src);
  // The innermost bracket around each offset, and each bracket's match.
  const around = new Int32Array(code.length + 1).fill(-1);
  const closing = new Map<number, number>();
  const open: number[] = [];
  for (let i = 0; i < code.length; i++) {
    around[i] = open.length ? open[open.length - 1]! : -1;
    const c = code[i]!;
    if (c === "(" || c === "[" || c === "{") open.push(i);
    else if ((c === ")" || c === "]" || c === "}") && open.length) closing.set(open.pop()!, i);
  }
  const args = (paren: number): string[] => {
    const end = closing.get(paren) ?? code.length;
    const out: string[] = [];
    let from = paren + 1;
    for (let i = from; i < end; i++) {
      if ("([{".includes(code[i]!)) i = closing.get(i) ?? i;
      else if (code[i] === ",") {
        out.push(code.slice(from, i).trim());
        from = i + 1;
      }
    }
    const tail = code.slice(from, end).trim();
    if (tail) out.push(tail);
    return out;
  };
  const ms = (expr: string | undefined): number | null => {
    if (!expr) return null;
    const constant = /^[A-Za-z_$][\w$]*$/.test(expr)
      ? new RegExp(`\\bconst\\s+${expr}\\s*(?::\\s*number\\s*)?=\\s*([\\d_.e\\s*]+?)\\s*[;\\n]`).exec(code)
      : null;
    const value = constant ? constant[1]!.trim() : expr;
    if (!/^[\d_.e]+(\s*\*\s*[\d_.e]+)*$/.test(value)) return null;
    return value.split("*").reduce((n, f) => n * Number(f.trim().replace(/_/g, "")), 1);
  };
  const lineOf = (i: number) => code.slice(0, i).split("\n").length;
  const before = (i: number) => code.slice(Math.max(0, i - 200), i);
  /** The `new Promise(` whose executor `setTimeout` at `i` is in, when its callback only resolves it; -1 if none. */
  const resolving = (i: number, callback: string): number => {
    for (let o = around[i]!; o >= 0; o = around[o]!) {
      if (code[o] !== "(" || !/\bnew\s+Promise\s*(?:<[^()]*>)?\s*$/.test(before(o))) continue;
      const resolve = /^\s*(?:async\s+)?(?:function\s*)?\(?\s*([A-Za-z_$][\w$]*)/.exec(code.slice(o + 1, o + 200))?.[1];
      if (!resolve) return -1;
      const only = new RegExp(`^(?:${resolve}|\\(\\s*\\)\\s*=>\\s*\\{?\\s*${resolve}\\s*\\([^()]*\\)\\s*;?\\s*\\}?)$`);
      return only.test(callback) ? o : -1;
    }
    return -1;
  };
  /** Whether the promise opened at `paren` is an element of `Promise.race([...])`: a deadline. */
  const raced = (paren: number): boolean => {
    const newAt = code.lastIndexOf("new", paren);
    const list = around[newAt]!;
    const call = list >= 0 ? around[list]! : -1;
    return list >= 0 && code[list] === "[" && call >= 0 && code[call] === "(" && /\bPromise\s*\.\s*race\s*$/.test(before(call));
  };
  const timersPromises = /from\s+["'](?:node:)?timers\/promises["']/.test(src);
  const found: string[] = [];
  for (const m of code.matchAll(/\b(waitForTimeout|setTimeout)\s*\(/g)) {
    const [name] = m.slice(1) as [string];
    const paren = m.index + m[0].length - 1;
    const a = args(paren);
    let delay: number | null = null;
    if (name === "waitForTimeout" || (timersPromises && a.length === 1)) delay = ms(a[0]);
    else if (a.length >= 2) {
      const promise = resolving(m.index, a[0]!);
      if (promise >= 0 && !raced(promise)) delay = ms(a[1]);
    }
    if (delay !== null && delay > max) found.push(`${file}:${firstLine - 1 + lineOf(m.index)}: sleeps ${delay} ms`);
  }
  // A template's text that holds a timer is read as code too: a script the test runs elsewhere sleeps all the same.
  for (const [from, to] of texts) {
    const text = src.slice(from, to);
    if (/\b(waitForTimeout|setTimeout)\b/.test(text)) found.push(...fixedSleeps(file, text, max, firstLine - 1 + lineOf(from)));
  }
  return found;
}

/**
 * The e2e files that drive the app without a page model: a test reads as what a member does
 * ("pay Bob 2.00"), the clicks and fields of each step written once in e2e/pages/<area>.ts.
 */
export function withoutPageModels(files: { path: string; text: string }[]): string[] {
  return files.filter((f) => !/^import [^;]+ from "\.\/pages\/[a-z-]+";$/m.test(f.text)).map((f) => f.path);
}

describe("the house's shape", () => {
  it(`no source file is over ${MAX_LINES} lines`, () => {
    const files = sources().map((f) => ({ path: f, lines: fs.readFileSync(path.join(ROOT, f), "utf8").split("\n").length - 1 }));
    expect(files.length).toBeGreaterThan(100);
    expect(longFiles(files)).toEqual([]);
  });

  it(`no test sleeps a fixed time over ${MAX_SLEEP_MS} ms: it waits on a condition`, () => {
    const files = testFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((f) => fixedSleeps(f, fs.readFileSync(path.join(ROOT, f), "utf8")))).toEqual([]);
  });

  it("finds a planted sleep, and lets a deadline, a poll's interval and a timer that does something be", () => {
    const planted = [
      "const SETTLE = 1_500;",
      "await page.waitForTimeout(1000);",
      "await new Promise((r) => setTimeout(r, 2 * 1000));",
      "await new Promise<void>((resolve) => { waiting.push(resolve); setTimeout(resolve, 200); });",
      "await new Promise((done) => setTimeout(() => done(), SETTLE));",
      // Not sleeps: a deadline raced against the work, a poll's short interval, a delay read at run time, a timer with work of its own.
      "await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);",
      "while (!(await ready())) await new Promise((r) => setTimeout(r, 100));",
      "await new Promise((r) => setTimeout(r, everyMs));",
      'const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);',
      // Nor what only looks like one: a comment, a string.
      "// await new Promise((r) => setTimeout(r, 5000));",
      'const doc = "await page.waitForTimeout(5000)";',
      // A page's script in a template is code all the same.
      "const PAGE = `<p>${title}</p><script>",
      "  await new Promise((r) => setTimeout(r, 300));",
      "</script>`;",
    ].join("\n");
    expect(fixedSleeps("planted.test.ts", planted)).toEqual([
      "planted.test.ts:2: sleeps 1000 ms",
      "planted.test.ts:3: sleeps 2000 ms",
      "planted.test.ts:4: sleeps 200 ms",
      "planted.test.ts:5: sleeps 1500 ms",
      "planted.test.ts:13: sleeps 300 ms",
    ]);
    expect(fixedSleeps("t.ts", 'import { setTimeout } from "node:timers/promises";\nawait setTimeout(250);')).toEqual(["t.ts:2: sleeps 250 ms"]);
  });

  it("every e2e test file drives the app through page models", () => {
    const files = fs
      .readdirSync(path.join(ROOT, "e2e"))
      .filter((f) => f.endsWith(".test.ts"))
      .map((f) => ({ path: `e2e/${f}`, text: fs.readFileSync(path.join(ROOT, "e2e", f), "utf8") }));
    expect(files.length).toBeGreaterThan(40);
    expect(withoutPageModels(files)).toEqual([]);
  });

  it("names an e2e file that drives the app by hand", () => {
    expect(
      withoutPageModels([
        { path: "e2e/a.test.ts", text: 'import { pay } from "./pages/payments";\nawait pay(page, "bob", "Bob Durand", "2.00");' },
        { path: "e2e/b.test.ts", text: 'import { signIn } from "./support/browser";\nawait page.getByRole("button", { name: "Pay" }).click();' },
      ]),
    ).toEqual(["e2e/b.test.ts"]);
  });

  it("names a file one line too long", () => {
    expect(
      longFiles([
        { path: "a.ts", lines: MAX_LINES },
        { path: "b.ts", lines: MAX_LINES + 1 },
      ]),
    ).toEqual([`b.ts: ${MAX_LINES + 1} lines`]);
  });
});
