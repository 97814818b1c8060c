import type { I18n } from "@lingui/core";
import { RECONVERSION_STATUSES, type ReconversionStatus } from "@mutua/domain";

/** docs/spec.md §3/9: true (sent), received, invoiced, paid — shown as sent, received, invoiced, processed. */
export const STAGES = RECONVERSION_STATUSES;

export function stageLabel(i18n: I18n, s: ReconversionStatus): string {
  switch (s) {
    case "sent":
      return i18n._("sent");
    case "received":
      return i18n._("received");
    case "invoiced":
      return i18n._("invoiced");
    case "paid":
      return i18n._("processed");
  }
}
