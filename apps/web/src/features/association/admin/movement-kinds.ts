import type { I18n } from "@lingui/core";
import type { MovementKind } from "@mutua/domain";

/** What a movement is, in words, for the administrators' and the board's screens (a member's page, the books). */
export function movementKindLabel(i18n: I18n, kind: MovementKind): string {
  switch (kind) {
    case "payment":
      return i18n._("Payment");
    case "topup":
      return i18n._("Top-up");
    case "reconversion":
      return i18n._("Reconversion");
    case "retirement":
      return i18n._("Reconversion paid out");
    case "opening":
      return i18n._("Opening balance");
    case "dues":
      return i18n._("Dues");
    case "settlement":
      return i18n._("Settlement with a linked association");
  }
}
