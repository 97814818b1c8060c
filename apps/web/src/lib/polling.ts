import { useSyncExternalStore } from "react";

/** docs/spec.md §7: a refresh interval in seconds from config (-1 off) as TanStack Query's refetchInterval. */
export const pollEvery = (seconds: number): number | false => (seconds < 0 ? false : seconds * 1000);

/**
 * Whether the member's event stream is up (features/notifications/live.tsx says so). While it
 * is, the server tells the app of every change to the member's money, so nothing polls: polling
 * is the fallback for when the stream cannot be opened (docs/architecture.md "Live money").
 */
let live = false;
const listeners = new Set<() => void>();

export function setLive(up: boolean): void {
  if (live === up) return;
  live = up;
  listeners.forEach((l) => l());
}

const subscribe = (onChange: () => void) => {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
};

/** pollEvery, switched off while the event stream is up. */
export function usePollEvery(seconds: number): number | false {
  const up = useSyncExternalStore(subscribe, () => live);
  return up ? false : pollEvery(seconds);
}
