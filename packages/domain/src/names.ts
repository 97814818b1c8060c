import { M } from "./messages";
import { msg, type Msg } from "./message";

export const NAME_MAX = 100;

export function nameProblem(raw: string): Msg | null {
  const name = raw.trim();
  if (name === "") return msg(M.fieldEmpty);
  if (name.length > NAME_MAX) return msg(M.fieldTooLong, { max: NAME_MAX });
  // Control characters have no place in a person's name and break CSV and e-mail headers.
  if (/\p{Cc}/u.test(name)) return msg(M.invalidRequest);
  // On the text as typed: trim() drops a leading or trailing U+FEFF, which is no reason to accept it.
  if (hasDeceptiveNameCharacters(raw)) return msg(M.nameCharacters);
  return null;
}

/**
 * Characters that make a name display other than it reads, so that one member passes for
 * another: a right-to-left override turns "Alice\u202Egnp" into something else on screen, a
 * zero-width space makes "Al\u200Bice" look like "Alice".
 */
/** Direction embeddings, overrides and isolates (they reorder what follows), and direction marks. */
const DIRECTION_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u061C\u200E\u200F]/u;
/** Invisible characters with no place in a name: zero-width space, word joiner, byte-order mark. */
const INVISIBLE = /[\u200B\u2060\uFEFF]/u;
/**
 * Zero-width (non-)joiners are part of how Persian, Arabic and Indic names are spelt, but beside a
 * Latin letter, a digit, punctuation or a space, or at either end, they only disguise.
 */
const JOINER_MISUSED = /^[\u200C\u200D]|[\u200C\u200D]$|[\p{Script=Latin}\p{N}\p{P}\s][\u200C\u200D]|[\u200C\u200D][\p{Script=Latin}\p{N}\p{P}\s]/u;

/** Whether a person's name holds a character that could make it pass for another. */
export const hasDeceptiveNameCharacters = (s: string): boolean => DIRECTION_CONTROLS.test(s) || INVISIBLE.test(s) || JOINER_MISUSED.test(s);
