/** The members' face: finding a member to pay or ask, and telling two alike names apart. */
export { NameHint } from "./recipients/NameHint";
export { useForgetRecipientSearches, useRecipientSearch, useSetFavorite } from "./recipients/queries";
export { photoFromFile } from "./profile/crop-photo";
