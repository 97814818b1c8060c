import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MutuaClient } from "@mutua/client";
import { useClient } from "../../../lib/context";
import { serviceWorkerRegistration } from "../../../lib/pwa";
import { MEMBER_KEY } from "../../../lib/query-policy";

/**
 * "Notify me on this device" (docs/architecture.md "Live money"): this browser's Web Push subscription, made
 * with the server's VAPID key and handed to the server, which sends the member's notifications to
 * it (the service worker shows them: public/push-sw.js).
 */
export type DevicePush = "unsupported" | "blocked" | "off" | "on";

export const devicePushKey = [...MEMBER_KEY, "device-push"] as const;

/** Push needs the browser's push API and the app's service worker, which some browsers refuse (lib/pwa.ts). */
const supported = async () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window && (await serviceWorkerRegistration) !== null;

/** The app's service worker, once it runs (it is registered after the page loads: lib/pwa.ts). */
const registration = () => navigator.serviceWorker.ready;

/** A base64url key (the server's VAPID key) as the bytes PushManager.subscribe takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/** The subscription as the contract takes it: its endpoint and its keys. */
function asBody(sub: PushSubscription) {
  const json = sub.toJSON();
  return { endpoint: sub.endpoint, keys: { p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "" } };
}

/**
 * Where this device stands. A subscription the browser still has is handed to the server again:
 * the switch shows "on" only when this member's notifications really come here (a subscription
 * left by somebody else who used this browser becomes this member's, as the switch then says).
 */
async function readState(client: MutuaClient): Promise<DevicePush> {
  if (!(await supported())) return "unsupported";
  if (Notification.permission === "denied") return "blocked";
  const sub = await (await registration()).pushManager.getSubscription();
  if (!sub) return "off";
  await client.call("subscribePush", { body: asBody(sub) });
  return "on";
}

/** Signing out: this device's subscription is dropped, here and on the server (app/sign-out.ts). */
export async function forgetDevicePush(client: MutuaClient): Promise<void> {
  const sub = await (await navigator.serviceWorker.getRegistration())?.pushManager?.getSubscription();
  if (!sub) return;
  await client.call("unsubscribePush", { body: { endpoint: sub.endpoint } }).catch(() => undefined);
  await sub.unsubscribe();
}

export function useDevicePush() {
  const client = useClient();
  return useQuery({ queryKey: devicePushKey, queryFn: () => readState(client), retry: false });
}

/** Turns this device's notifications on (asking the browser's permission first) or off. */
export function useSetDevicePush() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (on: boolean): Promise<DevicePush> => {
      const reg = await registration();
      const existing = await reg.pushManager.getSubscription();
      if (!on) {
        if (existing) {
          await client.call("unsubscribePush", { body: { endpoint: existing.endpoint } });
          await existing.unsubscribe();
        }
        return "off";
      }
      const permission = await Notification.requestPermission();
      if (permission === "denied") return "blocked";
      if (permission !== "granted") return "off";
      const { publicKey } = await client.call("getPushKey");
      const sub = existing ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
      try {
        await client.call("subscribePush", { body: asBody(sub) });
      } catch (e) {
        // Not kept by the server: not kept here either, or the switch would say "on" for nothing.
        await sub.unsubscribe().catch(() => undefined);
        throw e;
      }
      return "on";
    },
    onSuccess: (state) => qc.setQueryData(devicePushKey, state),
  });
}
