import { together } from "../services/ledger/batching";
import { Refusal } from "../services/platform/errors";
import type { PeerItem } from "../services/federation/peer-batches";
import { statusOf } from "./errors";

/**
 * A linked server's request of several quotes or payments (services/federation/peer-batches.ts):
 * each item answered as the route of one answers it, with the status and msgid of the error it
 * would have had, all of them started at once so that they meet in this side's own batches.
 */
export function eachAnswered<B, R>(items: B[], answer: (item: B) => Promise<R>): Promise<PeerItem<R>[]> {
  const started = together(() => items.map(answer));
  return Promise.all(
    started.map(async (answered): Promise<PeerItem<R>> => {
      try {
        return { ok: await answered };
      } catch (e) {
        if (!(e instanceof Refusal)) throw e;
        return { error: { status: statusOf(e), msgid: e.msg.id } };
      }
    }),
  );
}
