import type { AppConfig } from "@mutua/domain";

/**
 * Applies config `theme` (each key a CSS custom property; a value "$other" means var(--other))
 * and appends config `css`, so an association rebrands without a rebuild. The `css` stays the
 * last sheet of the page: each screen's own styles arrive with it, later, and would otherwise
 * win over the association's rules of the same weight.
 */
export function applyTheme(config: AppConfig): void {
  const root = document.documentElement;
  for (const [key, value] of Object.entries(config.theme)) {
    const v = typeof value === "string" ? value : JSON.stringify(value);
    root.style.setProperty(`--${key}`, v.startsWith("$") ? `var(--${v.slice(1)})` : v);
  }
  if (config.css) {
    const style = document.createElement("style");
    style.dataset.source = "config.css";
    style.textContent = config.css;
    document.head.appendChild(style);
    new MutationObserver(() => {
      if (document.head.lastElementChild !== style) document.head.appendChild(style);
    }).observe(document.head, { childList: true });
  }
}
