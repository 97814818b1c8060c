/**
 * Characters that make text display other than it reads. A right-to-left override turns
 * "Alice\u202Egnp.exe" into something else on screen; a zero-width space makes "Al\u200Bice" look
 * like "Alice" to a payer while being another member. Names and memos are shown to other members,
 * so they refuse what could deceive them.
 */

/** Explicit direction embeddings, overrides and isolates: they reorder the text that follows. */
const DIRECTION_OVERRIDES = /[\u202A-\u202E\u2066-\u2069]/u;
/** Direction marks (invisible; legitimate only in mixed-script prose, not in a person's name). */
const DIRECTION_MARKS = /[\u061C\u200E\u200F]/u;
/** Invisible characters with no place in a name: zero-width space, word joiner, byte-order mark. */
const INVISIBLE = /[\u200B\u2060\uFEFF]/u;
/**
 * Zero-width (non-)joiners are part of how Persian, Arabic and Indic names are spelt, but beside a
 * Latin letter or at an end they only serve to make one name look like another.
 */
const JOINER_MISUSED = /^[\u200C\u200D]|[\u200C\u200D]$|[\p{Script=Latin}\p{N}\p{P}\s][\u200C\u200D]|[\u200C\u200D][\p{Script=Latin}\p{N}\p{P}\s]/u;
/** Line breaks of every kind, and the other control characters. */
const LINE_BREAKS_AND_CONTROLS = /[\p{Cc}\u2028\u2029]/u;

/** Whether a person's name holds a character that could make it pass for another. */
export const hasDeceptiveNameCharacters = (s: string): boolean =>
  DIRECTION_OVERRIDES.test(s) || DIRECTION_MARKS.test(s) || INVISIBLE.test(s) || JOINER_MISUSED.test(s);

/** Whether a memo holds a line break, a control character or a direction override (marks and joiners stay: emoji and scripts need them). */
export const hasDeceptiveMemoCharacters = (s: string): boolean => LINE_BREAKS_AND_CONTROLS.test(s) || DIRECTION_OVERRIDES.test(s);
