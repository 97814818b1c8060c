import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { ErrorCode, LOGO_MAX_BYTES, SM, msg, type Msg } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import { audit } from "../platform/audit";
import { Refusal } from "../platform/errors";
import type { SvgCheck, SvgVerdict } from "./logo-worker";

/** Where the app finds the uploaded logo; the version makes a new one a new address. */
export const logoUrl = (version: string) => `/association/logo?v=${version.slice(0, 12)}`;

/**
 * How many levels of elements an SVG logo may nest: drawing programs group a logo's shapes a
 * handful of levels deep. Deeper nesting only makes the cleaning cost grow faster than the file.
 */
export const LOGO_MAX_DEPTH = 32;
/**
 * A PNG's largest width and height: the app shows a logo a few hundred pixels wide at most, and
 * every member's device decodes it whole (a 30000 × 30000 image is gigabytes once decoded).
 */
export const LOGO_MAX_SIDE = 2048;
/** How long one SVG's check may take once its thread is ready: a logo's takes well under a second. */
export const LOGO_CHECK_MS = 5_000;
/**
 * How long a new thread may take to load its sanitiser (jsdom: seconds on a loaded machine) before
 * its first check: not counted in an SVG's own time, which measures the SVG, never the machine.
 */
const WORKER_START_MS = 60_000;
/** The SVGs waiting for the thread beyond the one it checks: more are refused at once rather than queued. */
const LOGO_CHECKS_WAITING = 4;
/** The thread is kept this long after a check for the next one (an owner tries a few), then ended. */
const WORKER_IDLE_MS = 60_000;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's size from its header (the IHDR chunk, first after the signature), or null for no PNG. */
export function pngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  if (bytes.readUInt32BE(8) !== 13 || bytes.toString("latin1", 12, 16) !== "IHDR") return null;
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  return width > 0 && height > 0 ? { width, height } : null;
}

let worker: Worker | null = null;
/** Each thread's first message: its sanitiser loaded (logo-worker.ts). */
const readiness = new WeakMap<Worker, Promise<unknown>>();
let idle: NodeJS.Timeout | undefined;
let queue: Promise<unknown> = Promise.resolve();
let waiting = 0;

const endWorker = (w: Worker) => {
  if (worker === w) worker = null;
  void w.terminate();
};

function startWorker(): Worker {
  const w = new Worker(new URL("./logo-worker.ts", import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: 256 } });
  // Neither an idle thread nor its failure keeps the server up or brings it down: the next check starts another.
  w.unref();
  readiness.set(w, once(w, "message", { signal: AbortSignal.timeout(WORKER_START_MS) }));
  w.on("error", () => endWorker(w));
  w.on("exit", () => {
    if (worker === w) worker = null;
  });
  return w;
}

/**
 * An SVG checked and cleaned in a thread of its own (logo-worker.ts), one at a time: the cleaning
 * walks a DOM and never runs on the event loop, where a hard SVG would stop every other request.
 * Past its time limit the thread is ended, and the SVG refused.
 */
export function checkSvg(
  svg: string,
  limits: { maxDepth: number; ms: number } = { maxDepth: LOGO_MAX_DEPTH, ms: LOGO_CHECK_MS },
): Promise<SvgVerdict | { kind: "tooSlow" }> {
  if (waiting >= LOGO_CHECKS_WAITING) return Promise.resolve({ kind: "tooSlow" });
  waiting++;
  const turn = queue.then(() => {
    waiting--;
    return checkNow({ svg, maxDepth: limits.maxDepth }, limits.ms);
  });
  queue = turn.catch(() => undefined);
  return turn;
}

async function checkNow(check: SvgCheck, ms: number): Promise<SvgVerdict | { kind: "tooSlow" }> {
  clearTimeout(idle);
  const w = (worker ??= startWorker());
  try {
    await readiness.get(w);
    w.postMessage(check);
    const [verdict] = (await once(w, "message", { signal: AbortSignal.timeout(ms) })) as [SvgVerdict];
    return verdict;
  } catch {
    // Past its time, or out of memory: that thread is ended, the next check starts another.
    endWorker(w);
    return { kind: "tooSlow" };
  } finally {
    if (worker === w) idle = setTimeout(() => endWorker(w), WORKER_IDLE_MS).unref();
  }
}

const refusal = (m: Msg) => new Refusal(ErrorCode.validation, m);

/** The logo as it is to be stored: a PNG as it came, an SVG cleaned; refused in words otherwise. */
async function storedLogo(type: "image/png" | "image/svg+xml", bytes: Buffer): Promise<Buffer> {
  if (bytes.length === 0 || bytes.length > LOGO_MAX_BYTES) throw refusal(msg(SM.logoInvalid));
  if (type === "image/png") {
    const size = pngSize(bytes);
    if (!size) throw refusal(msg(SM.logoInvalid));
    if (size.width > LOGO_MAX_SIDE || size.height > LOGO_MAX_SIDE) throw refusal(msg(SM.logoTooManyPixels, { side: LOGO_MAX_SIDE }));
    return bytes;
  }
  const verdict = await checkSvg(bytes.toString("utf8"));
  if (verdict.kind === "clean") return Buffer.from(verdict.svg, "utf8");
  if (verdict.kind === "tooDeep") throw refusal(msg(SM.logoNestedTooDeep, { max: LOGO_MAX_DEPTH }));
  if (verdict.kind === "tooSlow") throw refusal(msg(SM.logoTooSlow));
  throw refusal(msg(SM.logoInvalid));
}

/**
 * Checks and stores the owners' logo (a PNG as it is, an SVG sanitised), audited. Not a change of
 * the settings' version: an owner editing the other settings meanwhile can still save them.
 */
export async function saveLogo(db: Db, owner: bigint, type: "image/png" | "image/svg+xml", base64: string): Promise<void> {
  const stored = await storedLogo(type, Buffer.from(base64, "base64"));
  await inTransaction(db, async (tx) => {
    const { rowCount } = await tx.query("UPDATE association SET logo = $1, logo_type = $2", [stored, type]);
    if (rowCount !== 1) throw new Refusal(ErrorCode.notFound, { id: SM.logoInvalid });
    await audit(tx, owner, "association.logo_changed", "association", { type, bytes: stored.length });
  });
}

export async function removeLogo(db: Db, owner: bigint): Promise<void> {
  await inTransaction(db, async (tx) => {
    const { rowCount } = await tx.query("UPDATE association SET logo = NULL, logo_type = NULL WHERE logo IS NOT NULL");
    if (rowCount === 1) await audit(tx, owner, "association.logo_removed", "association", {});
  });
}

export async function readLogo(db: Queryable): Promise<{ bytes: Buffer; type: string } | null> {
  const { rows } = await db.query<{ logo: Buffer | null; logo_type: string | null }>("SELECT logo, logo_type FROM association");
  const r = rows[0];
  return r?.logo && r.logo_type ? { bytes: r.logo, type: r.logo_type } : null;
}
