import type { CapacitorConfig } from "@capacitor/cli";

/**
 * The Android and iOS shells: the built web app (dist) in a WebView, talking to the association's
 * server named by config.json's `lokapiHost` (the shell has no server of its own). See the
 * "Mobile apps" in docs/operations.md for building them on a machine with the SDKs.
 */
const config: CapacitorConfig = {
  appId: "org.mutua.wallet",
  appName: "Mutua",
  webDir: "dist",
  android: { allowMixedContent: false },
  ios: { contentInset: "automatic" },
  plugins: {
    // The app sets the bar's colour from the association's theme at start (lib/native/status-bar.ts).
    StatusBar: { overlaysWebView: false },
  },
};

export default config;
