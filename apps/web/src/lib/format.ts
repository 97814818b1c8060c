import { useLingui } from "@lingui/react";
import { absCents, decodeApiAmount, formatAmount, formatDate, formatDateTime, formatRate, formatRelative, formatTime } from "@mutua/domain";
import { useConfig } from "./context";

/** Amount and date formats of the active language (its config `numericFormat` and `dateFormat`). */
export function useFormat() {
  const { i18n } = useLingui();
  const config = useConfig();
  const lang = config.locales.availableLanguages[i18n.locale];
  const numeric = lang?.numericFormat ?? i18n.locale;
  const dates = lang?.dateFormat ?? i18n.locale;
  const apiAmountText = (apiAmount: string, opts: { abs?: boolean }) => {
    const cents = decodeApiAmount(apiAmount);
    return formatAmount(opts.abs ? absCents(cents) : cents, numeric);
  };
  return {
    amount: (cents: bigint) => formatAmount(cents, numeric),
    /** An amount the app worked out ("5,00 DL" in French), with its currency. */
    centsMoney: (cents: bigint, currency: string) => `${formatAmount(cents, numeric)} ${currency}`,
    /**
     * An API amount ("-2.50") with its currency ("2.50 DL" with `abs`, where the direction is said
     * otherwise): the one place the app decodes the API's money for display.
     */
    money: (apiAmount: string, currency: string, opts: { abs?: boolean } = {}) => `${apiAmountText(apiAmount, opts)} ${currency}`,
    /** The number alone, for messages that place the currency themselves ("Sent {amount} {currency}"). */
    apiAmount: (apiAmount: string, opts: { abs?: boolean } = {}) => apiAmountText(apiAmount, opts),
    /**
     * An API amount put in an amount field ("12,50" in French): the language's decimal mark and no
     * grouping, which parseAmountInput reads back as it was.
     */
    amountInput: (apiAmount: string) => apiAmount.replace(".", decimalMark(numeric)),
    /**
     * A rate between two linked associations' currencies as the API writes it ("1.5"): at least 2
     * decimals, up to its 4, the language's way ("1,50" in French). The one way every screen
     * writes a rate (the linked associations' console, paying across, a transaction's detail).
     */
    rate: (apiRate: string) => formatRate(apiRate, numeric),
    date: (d: Date) => formatDate(d, dates),
    dateTime: (d: Date) => formatDateTime(d, dates),
    time: (d: Date) => formatTime(d, dates),
    relative: (d: Date) => formatRelative(d, new Date(), i18n.locale),
    /** The language's date format (config `dateFormat`), for the formats a screen of its own loads (formatWhen). */
    dateLocale: dates,
  };
}

/** "," or "." as the language writes decimals (any other mark is not one an amount field reads). */
function decimalMark(locale: string): "," | "." {
  const mark = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal")?.value;
  return mark === "," ? "," : ".";
}
