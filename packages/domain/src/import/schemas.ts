import { z } from "zod";
import { IMPORT_PART_BYTES, IMPORT_FILE_KINDS, IMPORT_FILE_MAX_PARTS, IMPORT_HISTORY_FIELDS, IMPORT_MEMBER_FIELDS } from "../vocabulary";

/** The import's contract: the files an owner uploads, the preview, the import and its invitations. */

/** A part of an imported file: the first opens the upload (no id), the others follow in order. */
export const ImportUploadBody = z.strictObject({
  uploadId: z
    .string()
    .regex(/^up_[0-9a-f]{32}$/)
    .nullable(),
  kind: z.enum(IMPORT_FILE_KINDS),
  /** The file's name on the owner's device, to name it in problems. */
  name: z.string().trim().min(1).max(200),
  /** 0 for the first part. */
  index: z
    .number()
    .int()
    .min(0)
    .max(IMPORT_FILE_MAX_PARTS - 1),
  /** The part's bytes as base64, at most IMPORT_PART_BYTES once decoded. */
  data: z.string().max(Math.ceil((IMPORT_PART_BYTES * 4) / 3) + 8),
});

export const ImportUpload = z.object({ uploadId: z.string(), bytes: z.number().int() });

const header = z.string().trim().min(1).max(200);
/**
 * Which of the file's columns holds which of Mutua's fields, as the owner matched them in the
 * console for a file no preset reads: remembered for the association's next file of that kind.
 */
export const ImportColumnMapping = z.strictObject({
  members: z.partialRecord(z.enum(IMPORT_MEMBER_FIELDS), header).optional(),
  history: z.partialRecord(z.enum(IMPORT_HISTORY_FIELDS), header).optional(),
});

export const ImportRequestBody = z.strictObject({
  members: z.string().regex(/^up_[0-9a-f]{32}$/),
  history: z
    .string()
    .regex(/^up_[0-9a-f]{32}$/)
    .nullable()
    .default(null),
  backendId: z.string().max(120).nullable().default(null),
  /**
   * The columns the owner matched, per file (null: the presets, or else the mapping the association
   * used last for a file of that kind). Given, it is remembered for the next files.
   */
  mapping: ImportColumnMapping.nullable().default(null),
});

/** One problem of an imported file, where its author can find it. */
export const ImportProblem = z.object({
  file: z.string(),
  line: z.number().int().nullable(),
  column: z.string().nullable(),
  value: z.string().nullable(),
  /** The line's own reference, to find it by: the member's external id (or e-mail), the history line's reference. */
  reference: z.string().nullable(),
  /** In English. */
  message: z.string(),
  /** The message as its English template (the catalogs' msgid) and values, for the console to say it in the owner's language. */
  code: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
});

export const ImportPreviewView = z.object({
  backend: z.object({ id: z.string(), kind: z.string(), symbol: z.string() }).nullable(),
  members: z.object({
    file: z.string(),
    preset: z.string().nullable(),
    encoding: z.string().nullable(),
    delimiter: z.string().nullable(),
    /** The file's headers, and per field the columns it is read from: what the console's matching offers and shows. */
    headers: z.array(z.string()),
    columns: z.partialRecord(z.enum(IMPORT_MEMBER_FIELDS), z.array(z.string())),
    unknownColumns: z.array(z.string()),
    /** The columns holding rights: read past, never imported (owners grant rights from the members' pages). */
    ignoredRights: z.array(z.string()),
    read: z.number().int(),
    /**
     * Members already here (same e-mail): when their account was made, and whether its address was
     * ever proven (if not, what the import brings them waits until it is).
     */
    existing: z.array(z.object({ line: z.number().int(), email: z.string(), name: z.string(), createdAt: z.string(), emailVerified: z.boolean() })),
    alreadyImported: z.number().int(),
    toImport: z.number().int(),
    total: z.string(),
    /** Business profiles the import makes, listed at once in the directory. */
    businesses: z.number().int(),
    /** Shops of the file already members here with a profile of their own: kept as it is. */
    businessesKept: z.number().int(),
    sample: z.array(z.object({ line: z.number().int(), externalId: z.string(), name: z.string(), email: z.string(), balance: z.string() })),
  }),
  history: z
    .object({
      file: z.string(),
      preset: z.string().nullable(),
      /** How the file was read: its encoding (null for ASCII only) and the values' separator. */
      encoding: z.string().nullable(),
      delimiter: z.string().nullable(),
      headers: z.array(z.string()),
      columns: z.partialRecord(z.enum(IMPORT_HISTORY_FIELDS), z.array(z.string())),
      unknownColumns: z.array(z.string()),
      lines: z.number().int(),
      first: z.string().nullable(),
      last: z.string().nullable(),
      cameIn: z.string(),
      wentOut: z.string(),
    })
    .nullable(),
  problems: z.array(ImportProblem),
  problemsOmitted: z.number().int(),
  /** What is imported otherwise than the file says, without stopping the import (a category the association does not have). */
  warnings: z.array(ImportProblem),
});

export const ImportResult = z.object({
  imported: z.boolean(),
  preview: ImportPreviewView,
  /** Members made, and existing ones whose balance and history were brought in. */
  members: z.number().int(),
  linked: z.number().int(),
  /** Of the linked ones, those whose address is not proven: their balance waits for it. */
  held: z.number().int(),
  alreadyImported: z.number().int(),
  /** Business profiles made, listed in the directory. */
  businesses: z.number().int(),
  movements: z.number().int(),
  skippedLines: z.number().int(),
  total: z.string(),
});

export const Invitations = z.object({
  notInvited: z.number().int(),
  waiting: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  accepted: z.number().int(),
  failures: z.array(z.object({ name: z.string(), email: z.string(), error: z.string() })),
});
