import { createElement, RefreshCw } from "lucide";
import "./pull-gesture.css";

/** How far the mark comes down (half the finger's way: the page resists) before letting go refreshes. */
const READY_PX = 64;
const MOST_PX = 96;
let following = false;

/**
 * Follows one finger from `startY` (lib/pull-to-refresh): a round mark comes down with it and
 * turns; let go past READY_PX, it spins while `refresh` runs, then goes. A finger already lifted
 * when this module arrived, or a second pull while one runs, does nothing.
 */
export function follow(startY: number, touching: () => boolean, refresh: () => Promise<unknown>): void {
  if (following || !touching()) return;
  following = true;
  const mark = document.createElement("div");
  mark.className = "pull-mark";
  mark.setAttribute("aria-hidden", "true");
  mark.append(createElement(RefreshCw));
  document.body.append(mark);
  let pulled = 0;
  const move = (e: TouchEvent) => {
    pulled = scrollY > 0 ? 0 : Math.min(MOST_PX, Math.max(0, (e.touches[0]!.clientY - startY) / 2));
    mark.style.setProperty("--pulled", `${pulled}px`);
    mark.classList.toggle("ready", pulled >= READY_PX);
  };
  const end = async () => {
    removeEventListener("touchmove", move);
    removeEventListener("touchend", end);
    removeEventListener("touchcancel", end);
    if (pulled >= READY_PX) {
      mark.classList.add("spinning");
      await refresh().catch(() => undefined);
    }
    mark.remove();
    following = false;
  };
  addEventListener("touchmove", move, { passive: true });
  addEventListener("touchend", end);
  addEventListener("touchcancel", end);
}
