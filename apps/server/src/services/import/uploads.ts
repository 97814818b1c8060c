import { randomBytes } from "node:crypto";
import {
  ErrorCode,
  IMPORT_FILE_MAX_PARTS,
  IMPORT_MEMBERS_MAX_PARTS,
  IMPORT_PART_BYTES,
  IMPORT_UPLOADS_PER_OWNER,
  SM,
  type ImportFileKind,
} from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import { Refusal, invalid } from "../platform/errors";
import type { ImportFile } from "./table";

/**
 * The files an owner uploads in the console (migration 0029): a part of a megabyte at a time, so
 * no request holds a whole export, each part kept in PostgreSQL, so the preview and the import may
 * be served by any instance. They are read back a part at a time as the import streams them, and
 * kept a day; an owner keeps IMPORT_UPLOADS_PER_OWNER at most, and a members file is at most
 * IMPORT_MEMBERS_MAX_PARTS parts.
 */

const KEPT_HOURS = 24;
const UPLOADS_LOCK = 0x6d_75_70_6c; // "mupl"

export interface UploadPart {
  uploadId: string | null;
  kind: ImportFileKind;
  name: string;
  index: number;
  /** Base64. */
  data: string;
}

/** Stores one part; the first (no id) opens the upload. Parts come in order, each at most IMPORT_PART_BYTES. */
export async function saveUploadPart(db: Db, by: bigint, part: UploadPart): Promise<{ uploadId: string; bytes: number }> {
  const bytes = Buffer.from(part.data, "base64");
  if (bytes.length > IMPORT_PART_BYTES) throw new Refusal(ErrorCode.validation, { id: SM.importFileTooLarge });
  return inTransaction(db, async (tx) => {
    let id = part.uploadId;
    if (id === null) {
      if (part.index !== 0) throw invalid({ index: { id: SM.importPartUnexpected } });
      // Yesterday's uploads go as today's come.
      await tx.query("DELETE FROM import_uploads WHERE created_at < now() - make_interval(hours => $1)", [KEPT_HOURS]);
      // An owner keeps a few uploads at once (two imports' files), so that nobody fills the
      // database with parts: their oldest go to make room, counted under a lock of theirs so
      // that uploads opened at the same moment are counted one after the other.
      await tx.query("SELECT pg_advisory_xact_lock($1, $2)", [UPLOADS_LOCK, Number(by % 0x7fff_ffffn)]);
      await tx.query(
        `DELETE FROM import_uploads WHERE id IN (
           SELECT id FROM import_uploads WHERE by_member = $1 ORDER BY created_at DESC, id OFFSET $2)`,
        [by, IMPORT_UPLOADS_PER_OWNER - 1],
      );
      id = `up_${randomBytes(16).toString("hex")}`;
      await tx.query("INSERT INTO import_uploads (id, by_member, kind, name) VALUES ($1, $2, $3, $4)", [id, by, part.kind, part.name]);
    }
    // The upload's row, locked: two parts sent at once are counted one after the other.
    const { rows } = await tx.query<{ parts: number; bytes: string }>(
      "SELECT parts, bytes::text FROM import_uploads WHERE id = $1 AND by_member = $2 AND kind = $3 FOR UPDATE",
      [id, by, part.kind],
    );
    const upload = rows[0];
    if (!upload) throw new Refusal(ErrorCode.notFound, { id: SM.importUploadGone });
    if (upload.parts !== part.index) throw invalid({ index: { id: SM.importPartUnexpected } });
    if (part.index >= IMPORT_FILE_MAX_PARTS) throw new Refusal(ErrorCode.validation, { id: SM.importFileTooLarge });
    // The members are checked against the database at each preview: their file is smaller.
    if (part.kind === "members" && part.index >= IMPORT_MEMBERS_MAX_PARTS) throw new Refusal(ErrorCode.validation, { id: SM.importMembersFileTooLarge });
    await tx.query("INSERT INTO import_upload_parts (upload_id, index, data) VALUES ($1, $2, $3)", [id, part.index, bytes]);
    const total = Number(upload.bytes) + bytes.length;
    await tx.query("UPDATE import_uploads SET parts = parts + 1, bytes = $2 WHERE id = $1", [id, total]);
    return { uploadId: id, bytes: total };
  });
}

/**
 * An upload of the owner's, as a file the import's readers stream: its parts are read one at a
 * time when it is opened (a preview and an import each open it). Refused if it is not theirs,
 * not of this kind, or gone.
 */
export async function uploadedFile(db: Queryable, by: bigint, id: string, kind: ImportFileKind): Promise<ImportFile> {
  const { rows } = await db.query<{ name: string; parts: number }>(
    `SELECT name, parts FROM import_uploads WHERE id = $1 AND by_member = $2 AND kind = $3 AND created_at >= now() - make_interval(hours => $4)`,
    [id, by, kind, KEPT_HOURS],
  );
  const upload = rows[0];
  if (!upload) throw new Refusal(ErrorCode.notFound, { id: SM.importUploadGone });
  return {
    name: upload.name,
    open: async function* () {
      for (let i = 0; i < upload.parts; i++) {
        const { rows: part } = await db.query<{ data: Buffer }>("SELECT data FROM import_upload_parts WHERE upload_id = $1 AND index = $2", [id, i]);
        if (!part[0]) throw new Refusal(ErrorCode.notFound, { id: SM.importUploadGone });
        yield part[0].data;
      }
    },
  };
}
