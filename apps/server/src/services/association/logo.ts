import createDOMPurify from "dompurify";
import { JSDOM } from "jsdom";
import { ErrorCode, SM } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import { audit } from "../board/audit";
import { Refusal } from "../platform/errors";

/** Where the app finds the uploaded logo; the version makes a new one a new address. */
export const logoUrl = (version: string) => `/association/logo?v=${version.slice(0, 12)}`;

export const LOGO_MAX_BYTES = 256 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let purifier: ReturnType<typeof createDOMPurify> | undefined;

/**
 * An SVG with nothing but drawing left in it: no script, no event handler, no link to elsewhere,
 * no foreign HTML (DOMPurify's SVG profile, in a DOM of jsdom's). A logo is opened as an image,
 * where scripts never run, but also by its address alone, where they would.
 */
export function sanitiseSvg(svg: string): string | null {
  purifier ??= createDOMPurify(new JSDOM("").window as unknown as Window & typeof globalThis);
  const clean = purifier.sanitize(svg, {
    USE_PROFILES: { svg: true, svgFilters: true },
    // Outside references (href="https://…", url(…) in styles) would make every viewer fetch them.
    FORBID_TAGS: ["style", "foreignObject", "a", "use", "image"],
    FORBID_ATTR: ["href", "xlink:href", "style"],
  });
  return /^\s*<svg[\s>]/i.test(clean) ? clean : null;
}

/**
 * Checks and stores the owners' logo (a PNG as it is, an SVG sanitised), audited. Not a change of
 * the settings' version: an owner editing the other settings meanwhile can still save them.
 */
export async function saveLogo(db: Db, owner: bigint, type: "image/png" | "image/svg+xml", base64: string): Promise<void> {
  const bytes = Buffer.from(base64, "base64");
  let stored: Buffer | null = null;
  if (bytes.length > 0 && bytes.length <= LOGO_MAX_BYTES) {
    if (type === "image/png") stored = bytes.subarray(0, 8).equals(PNG_SIGNATURE) ? bytes : null;
    else {
      const clean = sanitiseSvg(bytes.toString("utf8"));
      stored = clean === null ? null : Buffer.from(clean, "utf8");
    }
  }
  if (!stored) throw new Refusal(ErrorCode.validation, { id: SM.logoInvalid });
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
