import type { Server } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";

/** A comment line this often keeps proxies and phones from closing a quiet stream. */
export const HEARTBEAT_MS = 25_000;
/** How long an EventSource waits before it reconnects (the SSE `retry` field). */
export const RETRY_MS = 2_000;

export interface EventStream {
  send(message: { id?: string; event?: string; data: string }): void;
  /** Ends the stream; `retryMs` first tells the EventSource how long to wait before it reconnects. */
  end(retryMs?: number): void;
  onClose(fn: () => void): void;
  readonly closed: boolean;
}

/** The streams open on each HTTP server, to end them when it closes. */
const openStreams = new WeakMap<object, Set<EventStream>>();

/**
 * Ends every event stream open on `server`, telling each EventSource to reconnect (to another
 * instance, through the load balancer). A closing server waits for its requests to finish, and a
 * stream never does: without this an instance asked to stop would not.
 */
export function endEventStreams(server: Server): void {
  // Each stream leaves the set as it ends: a Set iterates on safely past deletions.
  for (const stream of openStreams.get(server) ?? []) stream.end(RETRY_MS);
}

/**
 * Turns a request into a Server-Sent Events stream (text/event-stream, WHATWG HTML §9.2): the reply
 * is taken over from Fastify, which neither compresses nor buffers it, so each event leaves at once.
 */
export function openEventStream(req: FastifyRequest, reply: FastifyReply): EventStream {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    // nginx and its kind would otherwise hold events back to fill a buffer.
    "X-Accel-Buffering": "no",
    // A stream's connection carries nothing after it: it closes with the stream rather than idle
    // as keep-alive (seen: a connection of an EventSource stopped in Node.js kept a closing
    // server waiting for the whole keep-alive timeout, 72 s).
    Connection: "close",
  });
  res.write(`retry: ${RETRY_MS}\n\n`);
  req.socket.setNoDelay(true);
  req.socket.setKeepAlive(true);

  let closed = false;
  const closers: (() => void)[] = [];
  const heartbeat = setInterval(() => res.write(":\n\n"), HEARTBEAT_MS);
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    for (const fn of closers) fn();
  };
  res.on("close", close);
  req.raw.on("close", close);
  // A client gone while the stream was being prepared would otherwise never say so.
  if (req.socket.destroyed) close();

  const stream: EventStream = {
    send({ id, event, data }) {
      if (closed) return;
      // One data line per line of text: the format's only escaping.
      const lines = data.split(/\r\n|\r|\n/).map((l) => `data: ${l}\n`);
      res.write(`${event ? `event: ${event}\n` : ""}${id ? `id: ${id}\n` : ""}${lines.join("")}\n`);
    },
    end(retryMs) {
      if (!closed && retryMs !== undefined) res.write(`retry: ${retryMs}\n\n`);
      close();
      res.end();
    },
    onClose(fn) {
      if (closed) fn();
      else closers.push(fn);
    },
    get closed() {
      return closed;
    },
  };
  const held = openStreams.get(req.server.server) ?? new Set<EventStream>();
  openStreams.set(req.server.server, held);
  held.add(stream);
  closers.push(() => held.delete(stream));
  return stream;
}
