import type { Db } from "./db/pool";
import type { Settings } from "./settings";
import type { Mailer } from "./services/mail";
import type { Features } from "./services/features";

/**
 * What the server is built from, in a module of its own: routes, the Lokavaluto face and tests
 * import these types without importing the app that imports them.
 */
export interface Deps {
  db: Db;
  settings: Settings;
  mailer: Mailer;
}

/** What routes get besides, from the association's config.json (read once at start). */
export interface AppDeps extends Deps {
  /** The features it leaves on. */
  features: Features;
  /** Its default language: the server writes in it to members who never said theirs. */
  defaultLanguage: string;
}
