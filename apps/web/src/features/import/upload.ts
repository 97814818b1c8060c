import { IMPORT_FILE_MAX_PARTS, IMPORT_MEMBERS_MAX_PARTS, IMPORT_PART_BYTES, SM, type BodyOf, type ImportFileKind } from "@mutua/domain";

/** The largest file the server takes: so many parts of so many bytes. */
export const IMPORT_FILE_MAX_BYTES = IMPORT_PART_BYTES * IMPORT_FILE_MAX_PARTS;
/** The largest members file: smaller, since each of its members is checked against the database. */
export const IMPORT_MEMBERS_MAX_BYTES = IMPORT_PART_BYTES * IMPORT_MEMBERS_MAX_PARTS;

/** Why the server would refuse a file for its size before it goes up, or null. */
export function tooLarge(kind: ImportFileKind, size: number): string | null {
  if (size > IMPORT_FILE_MAX_BYTES) return SM.importFileTooLarge;
  if (kind === "members" && size > IMPORT_MEMBERS_MAX_BYTES) return SM.importMembersFileTooLarge;
  return null;
}

export type { ImportFileKind };

/** How many parts a file goes up in (an empty file is one empty part: the server says what is wrong with it). */
export const partsOf = (size: number): number => Math.max(1, Math.ceil(size / IMPORT_PART_BYTES));

/** Bytes as base64, a slice at a time (a spread of a whole part as arguments would overflow the stack). */
export function base64Of(bytes: Uint8Array): string {
  const slices: string[] = [];
  for (let i = 0; i < bytes.length; i += 0x8000) slices.push(String.fromCharCode(...bytes.subarray(i, i + 0x8000)));
  return btoa(slices.join(""));
}

/**
 * Sends a file a part at a time, in order: the first part opens the upload, the others name it.
 * Each part is read and encoded on its own, so a 200 MB file never sits in memory as one string.
 * `sent` hears the bytes gone up after each part. Returns the upload's id.
 */
export async function uploadFile(
  file: Pick<File, "name" | "size" | "slice">,
  kind: ImportFileKind,
  send: (body: BodyOf<"uploadImportFile">) => Promise<{ uploadId: string }>,
  sent: (bytes: number) => void,
): Promise<string> {
  let uploadId: string | null = null;
  const parts = partsOf(file.size);
  for (let index = 0; index < parts; index++) {
    const bytes = new Uint8Array(await file.slice(index * IMPORT_PART_BYTES, (index + 1) * IMPORT_PART_BYTES).arrayBuffer());
    const answer: { uploadId: string } = await send({ uploadId, kind, name: file.name, index, data: base64Of(bytes) });
    uploadId = answer.uploadId;
    sent(bytes.length);
  }
  return uploadId!;
}
