/** docs/spec.md §7: a refresh interval in seconds from config (-1 off) as TanStack Query's refetchInterval. */
export const pollEvery = (seconds: number): number | false => (seconds < 0 ? false : seconds * 1000);
