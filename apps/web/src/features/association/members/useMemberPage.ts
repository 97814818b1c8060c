import { useState } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import type { MemberFile } from "@mutua/domain";
import { toast } from "../../../lib/toast";
import { useMemberActions } from "./queries";

/** The actions of a member's page, each asked to confirm first. */
export type MemberAction = "signOut" | "resetPins" | "passwordReset";

/**
 * The state of a member's page apart from how it is drawn: which action's confirmation is open,
 * whether it is under way, and what each action says when it is done. The freezes are features/association/admin/FreezeControl's own.
 */
export function useMemberPage(file: MemberFile) {
  const { i18n } = useLingui();
  const actions = useMemberActions(file.memberId);
  const [asking, setAsking] = useState<MemberAction | null>(null);

  const mutations = { signOut: actions.signOut, resetPins: actions.resetPins, passwordReset: actions.sendPasswordReset };
  const done: Record<MemberAction, (f: MemberFile) => void> = {
    signOut: (f) => toast.success(i18n._("{name} is signed out everywhere", { name: f.name })),
    resetPins: (f) => toast.success(i18n._("PIN attempts reset"), f.name),
    passwordReset: (f) => toast.success(i18n._("Password reset link sent to {email}", { email: f.email })),
  };

  const confirm = () => {
    if (!asking) return;
    const which = asking;
    mutations[which].mutate(undefined, {
      onSuccess: (f) => {
        setAsking(null);
        done[which](f);
      },
      onError: (e) => {
        setAsking(null);
        // The server's refusal says why (password resets turned off...); anything else, plainly.
        toast.error(e instanceof RefusedError ? e.msg : i18n._("The member's account could not be updated. Please refresh and try again."));
      },
    });
  };

  return {
    asking,
    ask: (which: MemberAction) => setAsking(which),
    cancel: () => setAsking(null),
    confirm,
    busy: asking !== null && mutations[asking].isPending,
  };
}

export type MemberPageState = ReturnType<typeof useMemberPage>;
