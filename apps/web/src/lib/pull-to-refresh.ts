import { useEffect, useRef } from "react";

/**
 * Pull to refresh on a touch screen: a finger pulling the page down from its top, and letting go
 * far enough, runs `refresh` (lib/pull-gesture: the gesture and its mark, loaded with the first
 * touch at the top). The browser's own pull, which would reload the whole app, is off meanwhile.
 */
export function usePullToRefresh(refresh: () => Promise<unknown>): void {
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  });
  useEffect(() => {
    let touching = false;
    const start = (e: TouchEvent) => {
      touching = e.touches.length === 1;
      // Only from the page's top, and not under a dialog or a menu.
      if (!touching || scrollY > 0 || document.querySelector("dialog[open], :popover-open")) return;
      const y = e.touches[0]!.clientY;
      void import("./pull-gesture").then(({ follow }) =>
        follow(
          y,
          () => touching,
          () => latest.current(),
        ),
      );
    };
    const end = () => (touching = false);
    const root = document.documentElement.style;
    root.overscrollBehaviorY = "contain";
    addEventListener("touchstart", start, { passive: true });
    addEventListener("touchend", end);
    addEventListener("touchcancel", end);
    return () => {
      root.overscrollBehaviorY = "";
      removeEventListener("touchstart", start);
      removeEventListener("touchend", end);
      removeEventListener("touchcancel", end);
    };
  }, []);
}
