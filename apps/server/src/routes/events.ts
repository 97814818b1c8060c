import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../deps";
import { operation } from "../http/contract";
import type { EventHub } from "../services/notifications/event-hub";
import { listNotifications, markAllRead, markRead } from "../services/notifications/member-events";
import { loginRequired } from "../services/platform/errors";
import { tokenHash } from "../services/members/sessions";
import { sessionToken } from "../http/auth";
import { EventFeeds } from "../http/event-feeds";

/**
 * Live money (docs/architecture.md "Live money"): one Server-Sent Events stream per open tab, fed from the
 * database through the instance's EventHub (http/event-feeds.ts), and the notification centre's list.
 */
export function eventRoutes(app: FastifyInstance, deps: AppDeps, hub: EventHub): void {
  const { db, settings } = deps;
  const feeds = new EventFeeds({ db, hub, idleSeconds: settings.sessionIdleSeconds, associationName: () => settings.associationName, log: app.log });
  // Open streams would keep a closing server waiting for ever: they end first (their EventSources
  // reconnect to another instance, or to this one restarted, and resume where they were).
  app.addHook("preClose", () => feeds.close());

  operation(app, deps, "events", async ({ req, reply, memberId, query }) => {
    // A reconnecting EventSource says where it stopped; a stream opened anew may say it in the query.
    const header = req.headers["last-event-id"];
    const resume = typeof header === "string" && /^\d{1,18}$/.test(header) ? header : query.after;
    // The session the request was let in by (header or cookie, as on every route): the stream ends with it.
    const token = sessionToken(req, settings);
    if (!token) throw loginRequired();
    await feeds.open(req, reply, memberId, tokenHash(token), resume);
    return "";
  });

  operation(app, deps, "listNotifications", async ({ memberId, query }) => listNotifications(db, memberId, query, settings.associationName));
  operation(app, deps, "markNotificationsRead", async ({ memberId, body }) => markRead(db, memberId, body.ids));
  operation(app, deps, "markAllNotificationsRead", async ({ memberId }) => markAllRead(db, memberId));
}
