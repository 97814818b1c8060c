import { useLingui } from "@lingui/react";
import { formatAmount, formatDate, formatRelative } from "@mutua/domain";
import { useConfig } from "../app/context";

/** Amount and date formats of the active language (its config `numericFormat` and `dateFormat`). */
export function useFormat() {
  const { i18n } = useLingui();
  const config = useConfig();
  const lang = config.locales.availableLanguages[i18n.locale];
  const numeric = lang?.numericFormat ?? i18n.locale;
  const dates = lang?.dateFormat ?? i18n.locale;
  return {
    amount: (cents: bigint) => formatAmount(cents, numeric),
    date: (d: Date) => formatDate(d, dates),
    relative: (d: Date) => formatRelative(d, new Date(), i18n.locale),
  };
}
