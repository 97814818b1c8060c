/**
 * The colours the owners set, by their name on the settings screen, and the CSS custom property
 * each one is in the app's config.json `theme` (apps/web/src/lib/theme.ts sets them on the page).
 * The pay button and links follow the main colour unless an association's file says otherwise.
 */
export const THEME_KEYS = {
  primaryColor: "primary-color",
  topBarColor: "top-menu-background-color",
  topBarTextColor: "top-menu-text-color",
} as const;

export type ThemeKey = keyof typeof THEME_KEYS;
