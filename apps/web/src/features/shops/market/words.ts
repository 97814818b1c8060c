import type { I18n } from "@lingui/core";
import type { MarketCategory, OfferView } from "@mutua/domain";

/** The marketplace's categories in the member's language. */
export const categoryLabel = (i18n: I18n, c: MarketCategory): string =>
  ({
    food: i18n._("Food"),
    goods: i18n._("Goods"),
    services: i18n._("Services"),
    housing: i18n._("Housing"),
    transport: i18n._("Transport"),
    leisure: i18n._("Leisure and culture"),
    other: i18n._("Other"),
  })[c];

/** What an offer's state says to its owner (a live one says nothing). */
export const statusLabel = (i18n: I18n, s: OfferView["status"]): string | null =>
  ({ live: null, expired: i18n._("Expired"), withdrawn: i18n._("Withdrawn"), hidden: i18n._("Hidden by the association") })[s];
