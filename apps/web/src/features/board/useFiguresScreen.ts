import { useState } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import type { FigureInterval } from "@mutua/domain";
import { useConfig } from "../../lib/context";
import { tr } from "../../lib/i18n";
import { toast } from "../../lib/toast";
import { presetPeriod, withDay, type Period, type Preset } from "./periods";
import { useFigures } from "./queries";
import { useCheckLedger, useLedgerHealth } from "../../data/ledger-health";

/** The languages numbers and dates are written in: the active language's config formats, as lib/format.ts reads them. */
export function useBoardLocales() {
  const { i18n } = useLingui();
  const lang = useConfig().locales.availableLanguages[i18n.locale];
  return { numeric: lang?.numericFormat ?? i18n.locale, dates: lang?.dateFormat ?? i18n.locale };
}

/**
 * The state of the board's figures screen, apart from how it is drawn: the period and
 * how it is cut, the figures of that period, the ledger's health and the check asked now.
 * Days are the device's: the server cuts weeks and months in the device's time zone too.
 */
export function useFiguresScreen() {
  const { i18n } = useLingui();
  // Read once: a screen left open past midnight keeps its period until the member changes it.
  const [today] = useState(() => new Date());
  const [tz] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const [preset, setPreset] = useState<Preset>("last12Months");
  const [custom, setCustom] = useState<Period>(() => presetPeriod("last12Months", today));
  const [interval, setInterval] = useState<FigureInterval>("month");
  const period = preset === "custom" ? custom : presetPeriod(preset, today);
  const figures = useFigures({ ...period, interval, tz });
  const health = useLedgerHealth();
  const check = useCheckLedger();

  const figuresError = figures.isError
    ? figures.error instanceof RefusedError
      ? tr(Object.values(figures.error.fields)[0] ?? figures.error.msg)
      : i18n._("The figures could not be loaded. Please try again.")
    : null;

  return {
    preset,
    /** Another period; "custom" starts from the days shown, which the member then changes. */
    choosePreset: (next: Preset) => {
      if (next === "custom") setCustom(period);
      setPreset(next);
    },
    period,
    tz,
    setDay: (which: keyof Period, day: string) => setCustom((p) => withDay(p, which, day)),
    /** The last day a period may end on. */
    lastDay: presetPeriod("thisMonth", today).to,
    interval,
    setInterval,
    figures,
    figuresError,
    health,
    checking: check.isPending,
    checkNow: () =>
      check.mutate(undefined, {
        onSuccess: (h) => {
          if (h.last && h.last.violations.length > 0) toast.error(i18n._("The ledger was checked: problems were found."));
          else toast.success(i18n._("The ledger was checked: no problem found."));
        },
        onError: () => toast.error(i18n._("The ledger could not be checked. Please try again.")),
      }),
  };
}

export type FiguresScreenState = ReturnType<typeof useFiguresScreen>;
