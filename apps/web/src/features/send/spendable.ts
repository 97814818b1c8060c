import { decodeApiAmount, type SubAccountView } from "@mutua/domain";

/** What the sub-accounts allow to spend (balance above each floor), in cents. */
export function spendableCents(subs: SubAccountView[]): bigint {
  return subs.reduce((sum, s) => {
    const bal = decodeApiAmount(s.bal);
    const floor = s.floor === null ? null : decodeApiAmount(s.floor);
    const room = floor === null ? bal : bal - floor;
    return sum + (room > 0n ? room : 0n);
  }, 0n);
}
