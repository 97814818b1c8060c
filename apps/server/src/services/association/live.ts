import type { Queryable } from "../../db/pool";
import type { Settings } from "../../settings";
import type { EventHub } from "../notifications/event-hub";
import { readAssociation, type Association } from "./association";

/**
 * One instance's copy of the association's row, read at start and again whenever the row changes
 * (its trigger notifies every instance at commit, services/notifications/event-hub.ts) or the
 * listening connection comes back (what changed meanwhile is read then). The row in the database
 * is the truth; this copy spares every request a query for the association's name.
 */
export class LiveAssociation {
  private value: Association | null = null;
  private reading: Promise<void> | null = null;
  private again = false;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly log: (message: string) => void,
  ) {}

  /** The association, or null before setup has been run. */
  current(): Association | null {
    return this.value;
  }

  /** Reads the row now; a change notified while it reads is read again after. */
  refresh(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.again = false;
        try {
          this.value = await readAssociation(this.db);
        } catch (e) {
          // The copy stays as it was; the next change or reconnection reads it again.
          this.log(`association settings not read again: ${(e as Error).message}`);
        }
      } while (this.again);
    })().finally(() => (this.reading = null));
    return this.reading;
  }

  /** Reads the row, then keeps the copy current with the hub's notifications. */
  async start(hub: EventHub): Promise<void> {
    await this.refresh();
    this.unsubscribe ??= hub.subscribeAssociation(() => void this.refresh());
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }
}

/**
 * The server's settings with what the association's row now decides read from it at each use:
 * its name, its bank details, and whether sign-up and password resets are open (the owners'
 * switches, else the environment's). Before setup, the environment's, and no sign-up.
 */
export function liveSettings(env: Settings, live: LiveAssociation): Settings {
  const view: Settings = { ...env };
  const switchOf = (key: "allowSignup" | "allowResetPassword") => {
    const association = live.current();
    // Nobody signs up before setup: the first member would be a stranger, and setup refuses a
    // database that has members.
    if (!association && key === "allowSignup") return false;
    const v = association?.appSettings[key];
    return typeof v === "boolean" ? v : env[key];
  };
  Object.defineProperties(view, {
    associationName: { enumerable: true, get: () => live.current()?.name ?? env.associationName },
    bank: { enumerable: true, get: () => live.current()?.bank ?? env.bank },
    allowSignup: { enumerable: true, get: () => switchOf("allowSignup") },
    allowResetPassword: { enumerable: true, get: () => switchOf("allowResetPassword") },
  });
  return view;
}
