/**
 * True inside the Android/iOS shells, false in a browser. Capacitor's native bridge defines
 * `window.Capacitor` before the app runs; reading it spares the web the download of
 * @capacitor/core, which only the native adapters load.
 */
export const isNative = (): boolean => Boolean((globalThis as { Capacitor?: { isNativePlatform?: () => boolean } }).Capacitor?.isNativePlatform?.());
