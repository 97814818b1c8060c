interface Kept {
  key: Uint8Array;
  expiresAt: number;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * docs/spec.md §4 "Retention": unlocked keys kept in memory only, each for at most the policy's time from
 * the moment it was entered. Using a key does not extend it (Monujo's sliding window kept the
 * password alive for as long as it was used). Keys are zeroed when they expire or are forgotten.
 */
export class KeyRetention {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  keep(walletId: string, key: Uint8Array, seconds: number, enteredAt = this.now()): void {
    this.forget(walletId);
    const expiresAt = enteredAt + seconds * 1000;
    const timer = setTimeout(() => this.forget(walletId), Math.max(0, expiresAt - this.now()));
    this.kept.set(walletId, { key: key.slice(), expiresAt, timer });
  }

  /** A copy of the kept key (callers wipe theirs after signing), or null. */
  take(walletId: string): Uint8Array | null {
    const k = this.kept.get(walletId);
    if (!k) return null;
    if (this.now() >= k.expiresAt) {
      this.forget(walletId);
      return null;
    }
    return k.key.slice();
  }

  forget(walletId: string): void {
    const k = this.kept.get(walletId);
    if (!k) return;
    clearTimeout(k.timer);
    k.key.fill(0);
    this.kept.delete(walletId);
  }

  clear(): void {
    // forget() deletes from the map: iterate over a copy of its keys.
    for (const id of Array.from(this.kept.keys())) this.forget(id);
  }
}

/** The app's one memory of unlocked keys; cleared on sign-in, sign-out and a lost session. */
export const retainedKeys = new KeyRetention();
