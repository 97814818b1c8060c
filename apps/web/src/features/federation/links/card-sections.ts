import { createContext, useContext } from "react";

/**
 * The id of the title of the link card a section is in. Each section of a card (payments in doubt,
 * forwarding, settlement, the other side's key, the link's end) is a landmark named by its own
 * heading and the card's: with two links, "Settlement, Gonette" and "Settlement, Demo Lokal", as
 * a screen reader's list of landmarks must tell them apart.
 */
export const LinkCardTitle = createContext<string | null>(null);

/** What names a section of a link card: its heading (`titleId`), then the card's title. */
export function useSectionName(titleId: string): string {
  const card = useContext(LinkCardTitle);
  return card ? `${titleId} ${card}` : titleId;
}
