/**
 * The thread that checks and cleans an uploaded SVG logo, away from the server's event loop
 * (logo.ts starts it and gives each check a time limit). Node loads this file by itself, without
 * the app's modules: it imports packages only, and is told its limits with each SVG.
 */
import { parentPort } from "node:worker_threads";
import { defaultTreeAdapter, parse, type DefaultTreeAdapterMap, type DefaultTreeAdapterTypes } from "parse5";

type ParentNode = DefaultTreeAdapterTypes.ParentNode;

/** What the thread answers for one SVG. */
export type SvgVerdict = { kind: "clean"; svg: string } | { kind: "tooDeep" } | { kind: "invalid" };

/** What logo.ts sends for one SVG: the text, and how many levels of elements it may nest. */
export interface SvgCheck {
  svg: string;
  maxDepth: number;
}

const TOO_DEEP = new Error("nested too deep");

/** How many elements deep `node` stands (the html element is 1), counted up to `limit` at most. */
function depthOf(node: ParentNode, limit: number): number {
  let depth = 0;
  for (let n: ParentNode | null = node; n && "tagName" in n && depth <= limit; n = n.parentNode) depth++;
  return depth;
}

/**
 * Whether a text parsed as the sanitiser parses it (HTML, by parse5, the parser jsdom uses, as
 * its DOMParser does: scripting off) nests elements more than `max` levels deep below its body.
 * No DOM is built, only parse5's plain objects, and parsing stops at the first element too deep:
 * the sanitiser's cost grows faster than the nesting, while this costs the same at every depth.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  // The html and body elements stand above the logo's own.
  const limit = max + 2;
  const checked = <T extends unknown[]>(insert: (parent: ParentNode, node: DefaultTreeAdapterMap["childNode"], ...rest: T) => void) =>
    function (parent: ParentNode, node: DefaultTreeAdapterMap["childNode"], ...rest: T) {
      if ("tagName" in node && depthOf(parent, limit) >= limit) throw TOO_DEEP;
      insert(parent, node, ...rest);
    };
  let document: DefaultTreeAdapterMap["document"];
  try {
    document = parse(text, {
      scriptingEnabled: false,
      treeAdapter: { ...defaultTreeAdapter, appendChild: checked(defaultTreeAdapter.appendChild), insertBefore: checked(defaultTreeAdapter.insertBefore) },
    });
  } catch (e) {
    if (e === TOO_DEEP) return true;
    throw e;
  }
  // Counted again on the whole tree: the parser also moves elements already placed (misnested
  // tags), and a template's content hangs from the template without being its child.
  const stack: [ParentNode, number][] = [[document, 0]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [node, depth] = top;
    if (depth > limit) return true;
    if ("content" in node) stack.push([node.content, depth]);
    for (const child of node.childNodes) if ("tagName" in child) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * An SVG with nothing but drawing left in it: no script, no event handler, no link to elsewhere,
 * no foreign HTML (DOMPurify's SVG profile, in a DOM of jsdom's). A logo is opened as an image,
 * where scripts never run, but also by its address alone, where they would. Refused, before any
 * DOM is made, when it nests deeper than a logo does.
 */
export async function cleanSvg({ svg, maxDepth }: SvgCheck): Promise<SvgVerdict> {
  if (nestsDeeperThan(svg, maxDepth)) return { kind: "tooDeep" };
  const clean = (await purifier())(svg);
  return /^\s*<svg[\s>]/i.test(clean) ? { kind: "clean", svg: clean } : { kind: "invalid" };
}

/**
 * The sanitiser, made once: DOMPurify over jsdom, whose loading takes seconds on a loaded machine.
 * The thread starts making it as soon as it starts, and says so when done (logo.ts starts an SVG's
 * time limit only then, so that the limit measures the SVG, not the thread's start).
 */
let making: Promise<(dirty: string) => string> | null = null;
function purifier(): Promise<(dirty: string) => string> {
  return (making ??= Promise.all([import("dompurify"), import("jsdom")]).then(([{ default: createDOMPurify }, { JSDOM }]) => {
    const made = createDOMPurify(new JSDOM("").window as unknown as Window & typeof globalThis);
    return (dirty: string) =>
      made.sanitize(dirty, {
        USE_PROFILES: { svg: true, svgFilters: true },
        // Outside references (href="https://…", url(…) in styles) would make every viewer fetch them.
        FORBID_TAGS: ["style", "foreignObject", "a", "use", "image"],
        FORBID_ATTR: ["href", "xlink:href", "style"],
      });
  }));
}

// Ready (or failed to load, which the first check will say as a refusal): the thread's first message.
if (parentPort)
  void purifier().then(
    () => parentPort!.postMessage({ ready: true }),
    () => parentPort!.postMessage({ ready: false }),
  );

parentPort?.on("message", (check: SvgCheck) => {
  cleanSvg(check).then(
    (verdict) => parentPort!.postMessage(verdict),
    () => parentPort!.postMessage({ kind: "invalid" } satisfies SvgVerdict),
  );
});
