import { useEffect, useState } from "react";
import { useLingui } from "@lingui/react";
import { chooseLanguage, M, type AppConfig, type Msg } from "@mutua/domain";
import { activateLanguage } from "../lib/i18n";
import { getLocalSettings, setLocalSettings } from "../lib/storage";
import { toast } from "../lib/toast";
import { useConfig } from "../lib/context";

/** The language to start in: saved choice, navigator (when preferred), default (docs/spec.md §3). */
export const initialLanguage = (config: AppConfig) =>
  chooseLanguage(config.locales, getLocalSettings().language, typeof navigator === "undefined" ? [] : navigator.languages);

/**
 * Activates `tag`, falling back to the strings' own language when its file fails; returns the
 * spec's message for that failure so the caller can toast it once the toaster is mounted.
 */
export async function switchLanguage(config: AppConfig, tag: string): Promise<Msg | null> {
  try {
    await activateLanguage(config, tag);
    return null;
  } catch (e) {
    console.error(`language ${tag}:`, e);
    await activateLanguage(config, config.locales.appStringsLanguage);
    return { id: M.languageLoadFailed, values: { lang: config.locales.availableLanguages[tag]?.label ?? tag } };
  }
}

export function useLanguage() {
  const config = useConfig();
  const { i18n } = useLingui();
  const [saved, setSaved] = useState(() => getLocalSettings().language ?? null);
  return {
    saved,
    current: i18n.locale,
    async choose(tag: string | null) {
      setLocalSettings({ language: tag });
      setSaved(tag);
      const failure = await switchLanguage(config, tag ?? initialLanguage(config));
      if (failure) toast.error(failure);
    },
  };
}

/** Shows a start-up failure once the toaster listens. */
export function StartupNotice({ failure }: { failure: Msg | null }) {
  useEffect(() => {
    if (failure) toast.error(failure);
  }, [failure]);
  return null;
}
