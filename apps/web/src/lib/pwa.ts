/**
 * The service worker (Workbox, built by vite-plugin-pwa) keeps the app shell for offline starts.
 * Registered after the page has loaded so it never competes with the first paint. A new version
 * waits until the member accepts to reload (`onUpdate` gets the function that applies it); the
 * page reloads only then, never on the first install.
 */
export function registerServiceWorker(onUpdate: (apply: () => void) => void): void {
  if (!("serviceWorker" in navigator) || import.meta.env.DEV) return;
  const start = async () => {
    const reg = await navigator.serviceWorker.register("/sw.js");
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
  if (document.readyState === "complete") void start();
  else window.addEventListener("load", () => void start(), { once: true });
}
