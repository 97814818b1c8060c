import type { AppConfig } from "./config";

/** A theme colour of config.json (`theme` keys are CSS custom properties), when it is a plain hex colour. */
function themeColor(config: AppConfig, keys: string[], fallback: string): string {
  for (const k of keys) {
    const v = config.theme[k];
    if (typeof v === "string" && /^#[0-9a-f]{3,8}$/i.test(v)) return v;
  }
  return fallback;
}

/**
 * The web app manifest of an association, from its config.json: the name, the logo and the
 * colours follow the config, so a rebrand needs no rebuild.
 */
export function webManifest(config: AppConfig) {
  const logo = config.logoUrl || "/logo.svg";
  const type = logo.endsWith(".svg") ? "image/svg+xml" : logo.endsWith(".png") ? "image/png" : undefined;
  return {
    name: config.appName,
    short_name: config.appName,
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: themeColor(config, ["color-1"], "#f4f6f5"),
    theme_color: themeColor(config, ["top-menu-background-color", "primary-color", "color-2"], "#1f6f5c"),
    icons: [{ src: logo, sizes: "any", purpose: "any", ...(type ? { type } : {}) }],
  };
}
