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
 * A name as it is stored: composed (NFC), every kind of space (no-break, ideographic, thin…)
 * written as one ordinary space, no space at either end. Spaces are made ordinary rather than
 * refused: a French keyboard types a no-break space by accident, and it reads like any other.
 */
export const normalizeName = (raw: string): string =>
  raw
    .normalize("NFC")
    .replace(/\p{Zs}+/gu, " ")
    .trim();

/**
 * Characters that make a name display other than it reads, so that one member passes for
 * another: a right-to-left override turns "Alice\u202Egnp" into something else on screen, a
 * zero-width space or a soft hyphen makes "Al\u200Bice" or "Al\u00ADice" look like "Alice", a
 * Hangul filler or a blank Braille pattern looks like a space or like nothing at all.
 *
 * Refused wherever they stand: format characters (Cf: direction embeddings, overrides, isolates
 * and marks, zero-width space, word joiner, soft hyphen, byte-order mark, tag characters…), every
 * default-ignorable code point (DI, what fonts draw as nothing: the Hangul fillers, variation
 * selectors, the combining grapheme joiner…), line and paragraph separators, private-use
 * characters (any font draws them as it likes), lone surrogate halves, and the blank Braille
 * pattern, a symbol drawn as a space. The two joiners are joinerMisplaced's to judge.
 */
const HIDDEN = /(?![\u200C\u200D])[\p{Cf}\p{DI}\p{Zl}\p{Zp}\p{Co}\p{Cs}\u2800]/u;

const ZWNJ = "\u200C";
const ZWJ = "\u200D";

/**
 * The scripts whose spelling needs the zero-width (non-)joiner: Persian, Urdu and the other
 * Arabic-script languages, Syriac, N'Ko, and the Brahmic scripts of South Asia (a half form or a
 * conjunct after a virama). Script_Extensions, so that the Arabic vowel marks, which the Unicode
 * Script property calls "Inherited", count as Arabic.
 */
const JOINING_SCRIPT =
  /[\p{scx=Arab}\p{scx=Syrc}\p{scx=Nkoo}\p{scx=Deva}\p{scx=Beng}\p{scx=Guru}\p{scx=Gujr}\p{scx=Orya}\p{scx=Taml}\p{scx=Telu}\p{scx=Knda}\p{scx=Mlym}\p{scx=Sinh}]/u;
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
const joins = (c: string | undefined): boolean => c !== undefined && LETTER_OR_MARK.test(c) && JOINING_SCRIPT.test(c);

/**
 * A joiner belongs only between two letters (or a letter's marks) of those scripts: beside a Latin
 * letter, a digit, an emoji, a space or another joiner, or at either end, it only disguises.
 */
function joinerMisplaced(s: string): boolean {
  const chars = [...s];
  return chars.some((c, i) => (c === ZWNJ || c === ZWJ) && !(joins(chars[i - 1]) && joins(chars[i + 1])));
}

/** Whether a person's name holds a character that could make it pass for another. */
export const hasDeceptiveNameCharacters = (s: string): boolean => HIDDEN.test(s) || joinerMisplaced(s);
