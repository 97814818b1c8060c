import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { newPage, signIn, toastText } from "./support/browser";
import { startPayment } from "./pages/payments";
import { deviceKeys, startPushService, type PushService } from "./support/push-service";
import { sql } from "./support/server";
import { useSuite } from "./support/suite";

/**
 * Web Push in the browser: Bob switches on "Notify me on this device", Alice pays him,
 * the server sends the push service an encrypted message that only Bob's device keys open, and
 * Bob's service worker shows it. Chromium's own push service is Google's, out of reach here: the
 * page's PushManager hands out a subscription to the test's push service instead (what a browser
 * does with its vendor's), with keys the test holds; everything else is the app's and the server's.
 */
let service: PushService;
beforeAll(async () => {
  service = await startPushService();
});
afterAll(async () => {
  await service?.close();
});
// Push services are reached on port 443 only, unless the entry names the port: the test's is any free one.
// The whole Chromium: its headless shell keeps notifications denied whatever is granted.
const suite = useSuite(() => ({ PUSH_SERVICE_HOSTS: new URL(service.origin).host, NODE_EXTRA_CA_CERTS: service.certFile }), { fullBrowser: true });

/** Bob's device: its subscription lives in localStorage, as a browser keeps its own across reloads. */
async function bobsDevice(context: BrowserContext, endpoint: string, keys: { p256dh: string; auth: string }) {
  await context.grantPermissions(["notifications"], { origin: suite.server.url });
  await context.addInitScript(
    ({ endpoint, p256dh, auth }) => {
      const make = () => ({
        endpoint,
        expirationTime: null,
        toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
        unsubscribe: async () => (localStorage.removeItem("test.push"), true),
      });
      PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
        const key = options?.applicationServerKey;
        localStorage.setItem("test.push", btoa(String.fromCharCode(...new Uint8Array(key as ArrayBuffer))));
        return make() as unknown as PushSubscription;
      };
      PushManager.prototype.getSubscription = async function () {
        return (localStorage.getItem("test.push") ? make() : null) as unknown as PushSubscription;
      };
    },
    { endpoint, ...keys },
  );
}

/** What the service worker has on screen. */
const shownNotifications = (page: Page) =>
  page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body })));

const deviceSwitch = (page: Page) => page.getByRole("switch", { name: "Notify me on this device" });
const bobsSubscriptions = async () =>
  Number(
    (
      (await sql(
        suite.server,
        "SELECT count(*)::int AS n FROM push_subscriptions s JOIN members m ON m.id = s.member_id WHERE m.email = 'bob@example.com'",
      )) as { n: number }[]
    )[0]!.n,
  );

describe("Web Push on Bob's device", () => {
  it("switched on in Preferences, Alice's payment reaches the device encrypted for it and its service worker shows it; switched off or signed out, the device is forgotten", async () => {
    const keys = deviceKeys();
    const endpoint = `${service.origin}/push/bob-device`;
    const bob = await newPage(suite.browser, { phone: true, serviceWorkers: "allow" });
    await bobsDevice(bob.context, endpoint, keys);
    await signIn(bob.page, suite.server.url, "bob@example.com", "Demo1234!");
    await bob.page.waitForURL(`${suite.server.url}/dashboard`);
    await bob.page.goto(`${suite.server.url}/preferences`);
    await deviceSwitch(bob.page).waitFor();
    expect(await deviceSwitch(bob.page).isChecked()).toBe(false);
    await deviceSwitch(bob.page).tap();
    await toastText(bob.page, "This device will show your notifications");
    expect(await deviceSwitch(bob.page).isChecked()).toBe(true);
    // The page subscribed with the server's own VAPID key.
    const { publicKey } = (await (await bob.page.request.get(`${suite.server.url}/api/push/key`)).json()) as { publicKey: string };
    expect(await bob.page.evaluate(() => localStorage.getItem("test.push"))).toBe(Buffer.from(publicKey, "base64url").toString("base64"));
    expect(await bobsSubscriptions()).toBe(1);

    const alice = await newPage(suite.browser, { phone: true, serviceWorkers: "allow" });
    await signIn(alice.page, suite.server.url, "alice@example.com", "Demo1234!");
    await alice.page.waitForURL(`${suite.server.url}/dashboard`);
    const send = await startPayment(alice.page, "durand", "Bob Durand", "2.61");
    await send.getByRole("button", { name: "Send", exact: true }).tap();
    await send.getByRole("button", { name: "Confirm and send" }).tap();
    await alice.page.getByRole("dialog", { name: "Payment confirmation" }).waitFor();

    // Only Bob's keys open what the server sent (RFC 8291): the payment, named.
    const message = JSON.parse(keys.decrypt(await service.next("/push/bob-device"))) as { title: string; body: string; url: string };
    expect(`${message.title} ${message.body}`).toContain("2.61 DL");
    expect(`${message.title} ${message.body}`).toContain("Alice Martin");
    expect(message.url).toBe("/notifications");

    // Handed to Bob's service worker as the push service would: it shows it.
    const cdp = await bob.context.newCDPSession(bob.page);
    const registration = new Promise<string>((resolve) =>
      cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
        const r = registrations.find((x) => x.scopeURL === `${suite.server.url}/` && !x.isDeleted);
        if (r) resolve(r.registrationId);
      }),
    );
    await cdp.send("ServiceWorker.enable");
    await cdp.send("ServiceWorker.deliverPushMessage", { origin: suite.server.url, registrationId: await registration, data: JSON.stringify(message) });
    await expect.poll(() => shownNotifications(bob.page)).toEqual([{ title: message.title, body: message.body }]);

    // Switched off: the server forgets the device.
    await deviceSwitch(bob.page).tap();
    await toastText(bob.page, "This device will no longer show your notifications");
    expect(await deviceSwitch(bob.page).isChecked()).toBe(false);
    expect(await bobsSubscriptions()).toBe(0);

    // On again, then signed out: forgotten too, so the next person on this browser gets nothing of Bob's.
    await deviceSwitch(bob.page).tap();
    // The first "on" toast may still be up: the switch and the server say when this one is done.
    await expect.poll(() => deviceSwitch(bob.page).isChecked()).toBe(true);
    await expect.poll(bobsSubscriptions).toBe(1);
    await bob.page.getByRole("navigation", { name: "Shortcuts" }).getByRole("button", { name: "Menu" }).tap();
    await bob.page.getByRole("menuitem", { name: "Sign out" }).tap();
    await bob.page.waitForURL(`${suite.server.url}/`);
    expect(await bobsSubscriptions()).toBe(0);
    // Forgotten by the browser too.
    expect(await bob.page.evaluate(() => localStorage.getItem("test.push"))).toBeNull();
    expect([...bob.errors, ...alice.errors]).toEqual([]);
    await Promise.all([bob.context.close(), alice.context.close()]);
  });

  it("in a browser that refuses service workers, the app runs and Preferences says this browser cannot show notifications", async () => {
    // As a private window or a policy does: registering the service worker fails.
    const bob = await newPage(suite.browser, { phone: true });
    await bob.context.addInitScript(() => {
      ServiceWorkerContainer.prototype.register = () => Promise.reject(new DOMException("Service workers are disabled", "SecurityError"));
    });
    await signIn(bob.page, suite.server.url, "bob@example.com", "Demo1234!");
    await bob.page.waitForURL(`${suite.server.url}/dashboard`);
    await bob.page.goto(`${suite.server.url}/preferences`);
    const section = bob.page.getByRole("region", { name: "Notifications on this device" });
    await section.getByText("This browser cannot show notifications. On an iPhone, add the app to your home screen first.").waitFor();
    expect(await section.getByRole("switch").count()).toBe(0);
    expect(bob.errors).toEqual([]);
    await bob.context.close();
  });
});
