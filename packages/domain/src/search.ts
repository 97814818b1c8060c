/**
 * The form names are compared in: lower-case, accents stripped ("Zoé" and "zoe" match),
 * compatibility forms folded (full-width "Ａlice", the "ﬁ" ligature), characters drawn as nothing
 * dropped ("Al\u00ADice" is "alice"), spaces of any kind as one. Names that look alike get one
 * key: the directory finds them together and tells them apart (services/members/name-hints.ts).
 */
export const searchKey = (s: string): string =>
  s
    .normalize("NFKD")
    // DI: Default_Ignorable_Code_Point.
    .replace(/\p{M}|\p{DI}/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();

/** docs/spec.md §5: recipient search starts at an empty text or at 3 characters. */
export const RECIPIENT_SEARCH_MIN = 3;
export const shouldSearchRecipients = (q: string) => q.trim().length === 0 || q.trim().length >= RECIPIENT_SEARCH_MIN;

/** docs/spec.md §5: the transaction recipient filter applies with more than 2 characters or none. */
export const shouldFilterTransactions = (q: string) => q.trim().length === 0 || q.trim().length > 2;

/** docs/spec.md §2: wallet owner names in lists are cut to 15 characters. */
export const ownerName = (name: string) => ([...name].length > 15 ? `${[...name].slice(0, 15).join("")}…` : name);
