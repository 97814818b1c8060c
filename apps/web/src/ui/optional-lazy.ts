import { lazy, type ComponentType } from "react";

/**
 * React.lazy for a part the screen can do without (a chart, a hint): when its code cannot be
 * fetched (the connection dropped while it loaded), the part is left out instead of the failed
 * import reaching the root and blanking the whole screen. It is asked for again on the next load.
 */
export function optionalLazy<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(() => load().catch(() => ({ default: (() => null) as ComponentType<P> })));
}
