import { renderMsg, type Msg } from "@mutua/domain";

/**
 * What is wrong with an imported file, said so that the person who made it can find and fix it:
 * the file, the physical line the record starts on, the column as the file's header names it and
 * the value as it was typed. Reading goes on after a problem, so that one pass lists them all.
 */
export interface FileProblem {
  file: string;
  /**
   * 1-based row of the spreadsheet (the file's line, less the line breaks inside quoted cells
   * before it); null for a problem of the whole file (a missing column…).
   */
  line: number | null;
  /** The header of the column, as written in the file (or expected, when it is missing). */
  column: string | null;
  value: string | null;
  /** The line's own reference, to find it by: a member's external id (or e-mail), a history line's reference. */
  reference: string | null;
  /** In English (the command line, the logs). */
  message: string;
  /**
   * The message as a code and its parameters, for the console to say it in the owner's language:
   * the code is the English template (the catalogs' msgid). Absent, the message is its own code.
   */
  code?: string;
  params?: Record<string, string | number>;
}

/** A problem's code and parameters: its own, or its English text as its code. */
export const problemCode = (p: FileProblem): { code: string; params: Record<string, string | number> } => ({
  code: p.code ?? p.message,
  params: p.params ?? {},
});

/** The fields of a problem said by a message of a template and values. */
export const said = (m: string | Msg): Pick<FileProblem, "message" | "code" | "params"> =>
  typeof m === "string" ? { message: m } : { message: renderMsg(m), code: m.id, params: m.values ?? {} };

/** More than that is no longer read one by one: a count of the rest says how bad it is. */
export const MAX_PROBLEMS = 1000;

/** The problems of one file: the first `max` in full, then only counted. */
export class Problems {
  readonly list: FileProblem[] = [];
  /** How many were found beyond `max` and left out of `list`. */
  omitted = 0;
  /** The reference of the line being read, given to the problems added without one. */
  reference: string | null = null;

  constructor(
    readonly file: string,
    readonly max = MAX_PROBLEMS,
  ) {}

  add(
    line: number | null,
    column: string | null,
    value: string | null,
    message: string | Msg,
    reference: string | null = line === null ? null : this.reference,
  ): void {
    if (this.list.length < this.max) this.list.push({ file: this.file, line, column, value, reference, ...said(message) });
    else this.omitted++;
  }

  get count(): number {
    return this.list.length + this.omitted;
  }
}
