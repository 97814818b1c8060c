/**
 * At most `n` of the tasks given to the returned function run at once; the others wait their
 * turn, first come first served. For work that holds one of this process's own resources (a
 * thread of libuv's pool): a bound of this process, unlike the counters every instance shares,
 * which live in PostgreSQL (rate-limit.ts).
 */
export function slots(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await task();
    } finally {
      // The slot passes to the next in line, or is given back.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
