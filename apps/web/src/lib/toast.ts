import type { Msg } from "@mutua/domain";
import { tr } from "./i18n";

/**
 * docs/spec.md §8/9: every error is a toast at the top for 5000 ms. Texts arrive translated or as messages.
 *
 * The toast library (sonner) loads with the first toast, not with the login page. ui/ToastHost
 * keeps a live region on the page from the start, so screen readers announce the first toast too,
 * and shows the message there itself when the library cannot be fetched (the server is down
 * before the app was installed): an error is never lost for want of its toast.
 */
type Sonner = typeof import("./toaster");
type Kind = "error" | "success" | "warning" | "info";

export interface ToastView {
  /** The loaded library, whose Toaster the host mounts; null until the first toast. */
  sonner: Sonner | null;
  /** A message shown without the library, when it could not be loaded. */
  fallback: { kind: Kind; text: string } | null;
}

export const FALLBACK_MS = 5000;

let view: ToastView = { sonner: null, fallback: null };
const listeners = new Set<() => void>();
let loading: Promise<Sonner> | null = null;
let toasterListening: Promise<void> | null = null;
let listening: () => void = () => undefined;
// Bumped when every toast is dismissed: a toast still waiting for the library is dropped too.
let generation = 0;

function update(patch: Partial<ToastView>) {
  view = { ...view, ...patch };
  listeners.forEach((l) => l());
}

/** For ui/ToastHost. */
export const toastView = {
  subscribe: (onChange: () => void) => {
    listeners.add(onChange);
    return () => listeners.delete(onChange);
  },
  get: () => view,
  /** Called once the mounted Toaster listens: toasts sent before would wait for nobody. */
  listening: () => listening(),
  clearFallback: () => update({ fallback: null }),
};

async function ready(): Promise<Sonner> {
  // A failed load is tried again with the next toast.
  loading ??= import("./toaster").catch((e: unknown) => {
    loading = null;
    throw e;
  });
  const sonner = await loading;
  if (!toasterListening) {
    toasterListening = new Promise<void>((resolve) => (listening = resolve));
    update({ sonner });
  }
  await toasterListening;
  return sonner;
}

function show(kind: Kind, text: string, options: Parameters<Sonner["toast"]["info"]>[1] = {}): void {
  const raisedIn = generation;
  ready().then(
    ({ toast }) => void (raisedIn === generation && toast[kind](text, options)),
    () => raisedIn === generation && update({ fallback: { kind, text } }),
  );
}

/**
 * Takes every toast off the screen, and those on their way: signing out (features/members/auth/sign-in.ts
 * forgetSession), since what the app told one member is not for whoever signs in next.
 */
export function dismissAllToasts(): void {
  generation++;
  // No library yet means no toast of it on screen: nothing is loaded just to dismiss.
  view.sonner?.toast.dismiss();
  if (view.fallback) update({ fallback: null });
}

const text = (m: string | Msg) => (typeof m === "string" ? m : tr(m));

export const toast = {
  error: (m: string | Msg) => show("error", text(m)),
  /** `detail`: a second line saying plainly what was done, under a text the spec words itself. */
  success: (m: string | Msg, detail?: string) => show("success", text(m), detail ? { description: detail } : {}),
  warning: (m: string | Msg, opts?: { sticky?: boolean }) => show("warning", text(m), opts?.sticky ? { duration: Infinity } : {}),
  /** A message that stays until its action is taken or it is dismissed. */
  action: (m: string, label: string, onClick: () => void) => show("info", m, { duration: Infinity, action: { label, onClick } }),
};
