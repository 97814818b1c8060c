import { isNative } from "./platform";

/**
 * The system bar takes the colour of the app's top bar as the association's theme sets it
 * (`--top-menu-background-color`): the status bar plugin in the shells, the `theme-color` meta
 * tag that mobile browsers and installed web apps use.
 */
export async function applyStatusBar(): Promise<void> {
  const color = getComputedStyle(document.documentElement).getPropertyValue("--top-menu-background-color").trim();
  if (!/^#[0-9a-f]{6}$/i.test(color)) return;
  document.querySelector('meta[name="theme-color"]')?.setAttribute("content", color);
  if (!isNative()) return;
  const { StatusBar, Style } = await import("@capacitor/status-bar");
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16)) as [number, number, number];
  // Dark icons on a light bar, light ones on a dark bar.
  await StatusBar.setStyle({ style: 0.299 * r + 0.587 * g + 0.114 * b > 150 ? Style.Light : Style.Dark });
  await StatusBar.setBackgroundColor({ color });
}
