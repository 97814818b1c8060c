import { createElement, RefreshCw } from "lucide";

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
  // Styled here rather than by a stylesheet of its own: one file less to fetch (and to list in the
  // dashboard's code) for a mark most visits never show. The page's policy allows styles set so.
  const mark = document.createElement("div");
  mark.className = "pull-mark";
  mark.setAttribute("aria-hidden", "true");
  Object.assign(mark.style, {
    position: "fixed",
    top: "0",
    left: "50%",
    zIndex: "30",
    display: "grid",
    placeItems: "center",
    width: "40px",
    height: "40px",
    borderRadius: "50%",
    background: "var(--card-bg)",
    color: "var(--muted-color)",
    boxShadow: "0 2px 8px rgb(0 0 0 / 0.2)",
  });
  const icon = createElement(RefreshCw, { width: 22, height: 22 });
  mark.append(icon);
  document.body.append(mark);
  let pulled = 0;
  const move = (e: TouchEvent) => {
    pulled = scrollY > 0 ? 0 : Math.min(MOST_PX, Math.max(0, (e.touches[0]!.clientY - startY) / 2));
    // Down with the finger, appearing over its first 32 px, turning as it comes; the colour of the
    // association once letting go would refresh.
    mark.style.translate = `-50% ${pulled + 24}px`;
    mark.style.opacity = String(Math.min(1, pulled / 32));
    icon.style.rotate = `${pulled * 4}deg`;
    mark.classList.toggle("ready", pulled >= READY_PX);
    mark.style.color = pulled >= READY_PX ? "var(--primary-color)" : "var(--muted-color)";
  };
  const end = async () => {
    removeEventListener("touchmove", move);
    removeEventListener("touchend", end);
    removeEventListener("touchcancel", end);
    if (pulled >= READY_PX) {
      mark.classList.add("spinning");
      // The page's own spin (styles.css), which stops where less motion is asked.
      icon.classList.add("spin");
      await refresh().catch(() => undefined);
    }
    mark.remove();
    following = false;
  };
  addEventListener("touchmove", move, { passive: true });
  addEventListener("touchend", end);
  addEventListener("touchcancel", end);
}
