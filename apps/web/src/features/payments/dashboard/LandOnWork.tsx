import { Navigate } from "../../../lib/router";
import { useRights } from "../../../data/session";

/**
 * Sends one who just signed in with no account of their own to their work: the administrators'
 * console or queues, the board's figures, the owner's settings (a member with none stays on the
 * dashboard, which says how to make a first wallet). Loaded only then, not with every dashboard.
 */
export default function LandOnWork() {
  const r = useRights();
  if (r.loading) return null;
  const work = r.both
    ? "/admin"
    : r.accountValidation
      ? "/admin/pending-accounts"
      : r.creditValidation
        ? "/admin/pending-credits"
        : r.board
          ? "/admin/figures"
          : r.owner
            ? "/admin/settings"
            : null;
  return work ? <Navigate to={work} replace /> : null;
}
