/**
 * Work that falls due by the calendar (dues collected, standing orders paid), run by every
 * instance with no process of its own. Each kind of work is a `step`: it claims one due row with
 * `FOR UPDATE SKIP LOCKED`, does it and moves the row's next date forward, all in one transaction
 * of its own, and says whether it found one. So any number of instances share the work without
 * coordination, a row is never done by two at once, and an instance killed mid-step leaves its
 * transaction rolled back: the row is still due, and done once by whoever comes next. Nothing is
 * charged twice and no period is skipped, whatever dies when.
 *
 * The runner calls each step until it finds nothing left, then sleeps until the next poll; a
 * wake-up (a setting changed, a member's money arrived) runs it again sooner. Dates are the
 * database's (`now()` in the steps), never this process's: all instances read one clock.
 */
export interface DueStep {
  /** For the log: "dues", "standing orders". */
  readonly name: string;
  /** Does one due thing in a transaction of its own; true when it found one (there may be more). */
  readonly step: () => Promise<boolean>;
}

export class DueWork {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;

  constructor(
    private readonly steps: readonly DueStep[],
    private readonly pollMs: number,
    private readonly log: (message: string) => void,
  ) {}

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Runs every step until nothing is due; a wake-up during a run makes one more pass after it. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.pass().finally(() => {
      this.running = null;
      if (this.stopped) return;
      if (this.again) {
        this.again = false;
        this.wake();
        return;
      }
      this.timer = setTimeout(() => this.wake(), this.pollMs);
      this.timer.unref();
    });
  }

  /** Every step, each until it finds nothing due, or fails (the database is away: tried at the next poll). */
  private async pass(): Promise<void> {
    for (const s of this.steps) {
      try {
        while (!this.stopped && (await s.step()));
      } catch (err) {
        this.log(`${s.name}: ${(err as Error).message}`);
      }
    }
  }

  /** Stops polling and waits for the step under way, so its transaction ends before the pool closes. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
