import { useEffect, useSyncExternalStore } from "react";

/**
 * A till stands on the counter: its screen must not go dark between customers, and may take the
 * whole screen. Both where the browser offers it (Screen Wake Lock, Fullscreen API); elsewhere the
 * till works as any page.
 */

/** Keeps the screen on while the till is shown; the browser drops the lock when the tab hides, so it is taken again on return. */
export function useKeepScreenOn(): void {
  useEffect(() => {
    if (!("wakeLock" in navigator)) return;
    let lock: WakeLockSentinel | null = null;
    let live = true;
    const take = () => {
      if (document.visibilityState !== "visible") return;
      navigator.wakeLock.request("screen").then(
        (l) => (live ? (lock = l) : void l.release()),
        () => undefined, // Refused (battery saver, a policy): the till works, the screen may dim.
      );
    };
    take();
    document.addEventListener("visibilitychange", take);
    return () => {
      live = false;
      document.removeEventListener("visibilitychange", take);
      void lock?.release();
    };
  }, []);
}

const onFullScreenChange = (notify: () => void) => {
  document.addEventListener("fullscreenchange", notify);
  return () => document.removeEventListener("fullscreenchange", notify);
};

/** Whether the page fills the screen, and the switch; null where the browser cannot (iPhones' Safari). */
export function useFullScreen(): { on: boolean; toggle: () => void } | null {
  const on = useSyncExternalStore(onFullScreenChange, () => document.fullscreenElement !== null);
  if (!document.fullscreenEnabled) return null;
  return {
    on,
    toggle: () => void (on ? document.exitFullscreen() : document.documentElement.requestFullscreen()).catch(() => undefined),
  };
}
