/**
 * The service worker (Workbox, built by vite-plugin-pwa) keeps the app shell for offline starts.
 * Registered after the page has loaded so it never competes with the first paint. A new version
 * waits until the member accepts to reload (`onUpdate` gets the function that applies it); the
 * page reloads only then, never on the first install.
 */
let settleRegistration: (reg: ServiceWorkerRegistration | null) => void = () => {};
/**
 * The app's service worker once registered, or null where there is none: in development, and
 * where the browser refuses one (a private window, a policy), which then never gets "ready".
 */
export const serviceWorkerRegistration = new Promise<ServiceWorkerRegistration | null>((resolve) => (settleRegistration = resolve));

export function registerServiceWorker(onUpdate: (apply: () => void) => void): void {
  if (!("serviceWorker" in navigator) || import.meta.env.DEV) return settleRegistration(null);
  const start = async () => {
    const reg = await navigator.serviceWorker.register("/sw.js");
    settleRegistration(reg);
    let accepted = false;
    const offer = (worker: ServiceWorker) =>
      onUpdate(() => {
        accepted = true;
        worker.postMessage({ type: "SKIP_WAITING" });
      });
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      if (accepted) window.location.reload();
    });
    if (reg.waiting && navigator.serviceWorker.controller) offer(reg.waiting);
    reg.addEventListener("updatefound", () => {
      const worker = reg.installing;
      worker?.addEventListener("statechange", () => {
        if (worker.state === "installed" && navigator.serviceWorker.controller) offer(worker);
      });
    });
  };
  // A browser that refuses service workers (a private window, a policy) runs the app online only:
  // nothing to tell the member, and no error left unhandled.
  const startQuietly = () => void start().catch(() => settleRegistration(null));
  if (document.readyState === "complete") startQuietly();
  else window.addEventListener("load", startQuietly, { once: true });
}
