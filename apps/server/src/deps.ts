import type { Agent } from "node:https";
import type { Db } from "./db/pool";
import type { Settings } from "./settings";
import type { Mailer } from "./services/platform/mail";
import type { Features } from "./services/platform/features";
import type { Metrics } from "./http/metrics";
import type { PeerSeam } from "./services/federation/peer-net";

/**
 * What the server is built from, in a module of its own: routes, the Lokavaluto face and tests
 * import these types without importing the app that imports them.
 */
export interface Deps {
  db: Db;
  settings: Settings;
  mailer: Mailer;
  /**
   * A test seam: the HTTPS agent Web Push requests go through, for a test's push service with a
   * self-signed certificate. Unset in production: pushes go out with Node's default agent, which
   * checks the push service's certificate against the system's authorities.
   */
  pushAgent?: Agent;
  /**
   * The Prometheus metrics the app counts into (http/metrics.ts `createMetrics`). Unset, the app
   * makes its own; given, a caller that builds the app can hold them before it exists.
   */
  metrics?: Metrics;
  /**
   * A test seam: how the federation reaches other servers (services/federation/peer-net.ts), with
   * a test's own resolver or its requests lost on the way. Unset in production: the system's
   * resolver, and every request as it goes.
   */
  peerSeam?: PeerSeam;
}

/** What routes get besides, from the association's config.json (read once at start). */
export interface AppDeps extends Deps {
  /** The features it leaves on. */
  features: Features;
  /** Its default language: the server writes in it to members who never said theirs. */
  defaultLanguage: string;
}
