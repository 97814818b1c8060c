import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../deps";
import { operation } from "../http/contract";
import type { EventHub } from "../services/event-hub";
import { currentPosition, eventsAfter, listNotifications, markAllRead, markRead, positionAfter, type StreamPosition } from "../services/member-events";
import { openEventStream, type EventStream } from "../http/event-stream";

/**
 * Live money (README "Live money"): one Server-Sent Events stream per open tab, fed from the
 * database through the instance's EventHub, and the notification centre's list.
 */
export function eventRoutes(app: FastifyInstance, deps: AppDeps, hub: EventHub): void {
  const { db, settings } = deps;
  // Open streams would keep a closing server waiting for ever: they end first (their EventSources
  // reconnect to another instance, or to this one restarted, and resume where they were).
  const open = new Set<EventStream>();
  app.addHook("preClose", async () => {
    for (const s of open) s.end();
  });

  operation(app, deps, "events", async ({ req, reply, memberId, query }) => {
    // A reconnecting EventSource says where it stopped; a stream opened anew may say it in the query.
    const header = req.headers["last-event-id"];
    const resume = typeof header === "string" && /^\d{1,18}$/.test(header) ? header : query.after;
    const stream = openEventStream(req, reply);
    open.add(stream);
    let position: StreamPosition | null = null;
    let reading = false;
    let again = false;
    let waitTimer: NodeJS.Timeout | null = null;

    const read = async () => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        do {
          again = false;
          if (!position || stream.closed) return;
          const out = await eventsAfter(db, memberId, position, settings.associationName);
          for (const e of out.events) stream.send({ id: e.id, data: JSON.stringify(e) });
          position = out.position;
          // Committed behind an older transaction still running: looked at again shortly.
          if (out.waiting && !waitTimer) waitTimer = setTimeout(() => ((waitTimer = null), void wake()), 50);
        } while (again);
      } finally {
        reading = false;
      }
    };
    const wake = () =>
      read().catch((err: unknown) => {
        req.log.error({ err }, "event stream read failed");
        stream.end();
      });

    const unsubscribe = hub.subscribe(memberId, wake);
    stream.onClose(() => {
      open.delete(stream);
      unsubscribe();
      if (waitTimer) clearTimeout(waitTimer);
    });
    try {
      // An unknown resume point (another member's id, a database restored from a backup) starts now.
      position = (resume ? await positionAfter(db, memberId, BigInt(resume)) : null) ?? (await currentPosition(db, memberId));
    } catch (err) {
      req.log.error({ err }, "event stream cannot start");
      stream.end();
      return "";
    }
    // The position, so that an EventSource reconnecting after a silent spell still resumes from here.
    stream.send({ event: "ready", id: position.id.toString(), data: "{}" });
    wake();
    return "";
  });

  operation(app, deps, "listNotifications", async ({ memberId, query }) => listNotifications(db, memberId, query, settings.associationName));
  operation(app, deps, "markNotificationsRead", async ({ memberId, body }) => markRead(db, memberId, body.ids));
  operation(app, deps, "markAllNotificationsRead", async ({ memberId }) => markAllRead(db, memberId));
}
