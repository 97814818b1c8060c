import { fillPath, memberRoutes, type MemberEvent } from "@mutua/domain";

/** What subscribe needs of an EventSource: the browser's, or the `eventsource` package's elsewhere. */
export interface EventSourceLike {
  readonly readyState: number;
  close(): void;
  addEventListener(type: string, listener: (e: { data?: string; lastEventId?: string }) => void): void;
}
export type EventSourceConstructor = new (url: string, init?: { withCredentials?: boolean; fetch?: typeof fetch }) => EventSourceLike;

export interface EventHandlers {
  onEvent(event: MemberEvent): void;
  /** The stream is up: events arrive as they happen. */
  onOpen?(): void;
  /** The stream is down and being reopened: the caller polls meanwhile. */
  onDown?(): void;
}

/** Where a client's stream is, and how it authenticates (MutuaClient.streamAccess). */
export interface StreamAccess {
  baseUrl: string;
  EventSource?: EventSourceConstructor | undefined;
  fetch: typeof fetch;
  token?: string | null | undefined;
}

/**
 * Follows the member's events as they happen, through a client; returns the function that stops.
 * A function beside the client, not a method of it: a page that never follows events (the login
 * page) does not load this code with the client.
 */
export function subscribe(client: { streamAccess(): StreamAccess }, handlers: EventHandlers): () => void {
  const { baseUrl, ...opts } = client.streamAccess();
  return followEvents(baseUrl, handlers, opts);
}

/** EventSource.CLOSED: it gave up (an answer that is not a stream, a 401): reopened by hand. */
const CLOSED = 2;
/** How long a stream that gave up waits before it is opened anew. */
export const REOPEN_MS = 5_000;

/**
 * Follows the member's events (docs/architecture.md "Live money"). The EventSource reconnects by
 * itself after a cut, saying the last event it saw (Last-Event-ID), so the server resumes after it:
 * nothing is missed, nothing repeated. When it gives up, it is opened anew after REOPEN_MS with
 * `after=` that same event. Returns the function that stops following.
 */
export function followEvents(
  baseUrl: string,
  handlers: EventHandlers,
  opts: { EventSource?: EventSourceConstructor | undefined; fetch: typeof fetch; token?: string | null | undefined },
): () => void {
  const Source = opts.EventSource ?? (globalThis as { EventSource?: EventSourceConstructor }).EventSource;
  if (!Source) throw new Error("followEvents: no EventSource in this runtime; pass one");
  const { token } = opts;
  // Only the `eventsource` package reads `fetch`: how a session token rides along where there are no cookies.
  const authorised: typeof fetch | undefined = token
    ? (input, init) => opts.fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), Authorization: `Bearer ${token}` } })
    : undefined;
  let last: string | null = null;
  let source: EventSourceLike | null = null;
  let reopen: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const open = () => {
    const url = `${baseUrl}${fillPath(memberRoutes.events.path, undefined)}${last ? `?after=${encodeURIComponent(last)}` : ""}`;
    const s = new Source(url, { withCredentials: true, ...(authorised ? { fetch: authorised } : {}) });
    source = s;
    s.addEventListener("ready", (e) => {
      last = e.lastEventId || last;
      handlers.onOpen?.();
    });
    s.addEventListener("message", (e) => {
      if (e.lastEventId) last = e.lastEventId;
      handlers.onEvent(JSON.parse(e.data ?? "null") as MemberEvent);
    });
    s.addEventListener("error", () => {
      if (stopped) return;
      handlers.onDown?.();
      if (s.readyState === CLOSED && !reopen) {
        reopen = setTimeout(() => {
          reopen = null;
          if (!stopped) open();
        }, REOPEN_MS);
      }
    });
  };
  open();
  return () => {
    stopped = true;
    if (reopen) clearTimeout(reopen);
    source?.close();
  };
}
