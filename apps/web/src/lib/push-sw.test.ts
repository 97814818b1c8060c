import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";

/**
 * public/push-sw.js, run in a stand-in for the service worker's global scope: what it shows for
 * the server's payload, and where a tap takes the member.
 */
const SOURCE = fs.readFileSync(path.resolve(import.meta.dirname, "../../public/push-sw.js"), "utf8");
const ORIGIN = "https://wallet.example.org";

type Listener = (event: unknown) => void;
interface FakeWindow {
  url: string;
  focus: ReturnType<typeof vi.fn>;
  navigate: ReturnType<typeof vi.fn>;
}

function worker(windows: FakeWindow[] = []) {
  const listeners = new Map<string, Listener>();
  const self = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, l: Listener) => listeners.set(type, l),
    registration: { showNotification: vi.fn(async () => undefined) },
    clients: { matchAll: vi.fn(async () => windows), openWindow: vi.fn(async () => undefined) },
  };
  new Function("self", SOURCE)(self);
  const dispatch = async (type: string, event: Record<string, unknown>) => {
    let done: Promise<unknown> = Promise.resolve();
    listeners.get(type)!({ ...event, waitUntil: (p: Promise<unknown>) => (done = p) });
    await done;
  };
  return { self, dispatch };
}

const pushOf = (payload: unknown) => ({ data: { json: () => payload, text: () => JSON.stringify(payload) } });

describe("the service worker's push handling", () => {
  it("shows the server's title and body, tagged with the event so a repeat replaces it", async () => {
    const { self, dispatch } = worker();
    await dispatch("push", pushOf({ title: "Received 2.50 DL", body: "From Alice Martin", url: "/notifications", tag: 41 }));
    expect(self.registration.showNotification).toHaveBeenCalledWith("Received 2.50 DL", {
      body: "From Alice Martin",
      icon: "/logo.svg",
      tag: "41",
      data: { url: "/notifications" },
    });
  });

  it("shows something for a payload that is not JSON rather than nothing", async () => {
    const { self, dispatch } = worker();
    await dispatch("push", { data: { json: () => JSON.parse("not json"), text: () => "not json" } });
    expect(self.registration.showNotification).toHaveBeenCalledWith("Mutua", { body: "not json", icon: "/logo.svg", data: { url: "/notifications" } });
  });

  it("a tap takes an open window of the app to the notification's page, or opens one", async () => {
    const open = { url: `${ORIGIN}/dashboard`, focus: vi.fn(async () => undefined), navigate: vi.fn(async () => undefined) };
    const withWindow = worker([open]);
    const close = vi.fn();
    await withWindow.dispatch("notificationclick", { notification: { close, data: { url: "/notifications" } } });
    expect(close).toHaveBeenCalled();
    expect(open.focus).toHaveBeenCalled();
    expect(open.navigate).toHaveBeenCalledWith(`${ORIGIN}/notifications`);
    expect(withWindow.self.clients.openWindow).not.toHaveBeenCalled();

    const none = worker();
    await none.dispatch("notificationclick", { notification: { close, data: { url: "/notifications" } } });
    expect(none.self.clients.openWindow).toHaveBeenCalledWith(`${ORIGIN}/notifications`);
  });

  it("never opens a page of another site, whatever the payload says", async () => {
    const { self, dispatch } = worker();
    await dispatch("notificationclick", { notification: { close: vi.fn(), data: { url: "https://evil.example/phish" } } });
    expect(self.clients.openWindow).not.toHaveBeenCalled();
  });
});
