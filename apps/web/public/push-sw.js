/*
 * Web Push in the app's service worker (README "Live money"), imported by the Workbox worker that
 * vite-plugin-pwa builds (vite.config.ts `importScripts`). The server sends, encrypted for this
 * device, JSON `{ title, body, url, tag }`: shown as a notification; a tap opens `url` in the app
 * (a window of the app already open is focused and taken there, else one is opened).
 */
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  const options = { body: data.body || "", icon: "/logo.svg", data: { url: data.url || "/notifications" } };
  // The same event told twice (a retry after a lost answer) replaces its notification, not adds one.
  if (data.tag) options.tag = String(data.tag);
  event.waitUntil(self.registration.showNotification(data.title || "Mutua", options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/notifications", self.location.origin);
  // Only a page of the app itself: a payload cannot send the member elsewhere.
  if (target.origin !== self.location.origin) return;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((w) => new URL(w.url).origin === target.origin);
      if (open) {
        await open.focus();
        if ("navigate" in open) await open.navigate(target.href);
        return;
      }
      await self.clients.openWindow(target.href);
    })(),
  );
});
