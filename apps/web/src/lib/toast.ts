import { toast as sonner } from "sonner";
import type { Msg } from "@mutua/domain";
import { tr } from "./i18n";

/** Spec 8/9: every error is a toast at the top for 5000 ms. Texts arrive translated or as messages. */
const text = (m: string | Msg) => (typeof m === "string" ? m : tr(m));

export const toast = {
  error: (m: string | Msg) => sonner.error(text(m)),
  success: (m: string | Msg) => sonner.success(text(m)),
  warning: (m: string | Msg, opts?: { sticky?: boolean }) => sonner.warning(text(m), opts?.sticky ? { duration: Infinity } : {}),
  /** A message that stays until its action is taken or it is dismissed. */
  action: (m: string, label: string, onClick: () => void) => sonner.info(m, { duration: Infinity, action: { label, onClick } }),
};
