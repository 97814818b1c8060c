import { useCallback } from "react";
import { RefusedError } from "@mutua/client";
import { ErrorCode } from "@mutua/domain";
import { useModals } from "../../../ui/modals";

/** The member closed the password confirmation: the operation stops without an error message. */
export class StepUpCanceled extends Error {
  constructor() {
    super("Password confirmation canceled");
  }
}

export const needsStepUp = (e: unknown) => e instanceof RefusedError && e.code === ErrorCode.reauthRequired;

/**
 * Runs `fn`; when the server asks the session to prove the password again (adding a passkey or
 * a device login long after signing in), asks for it once and runs `fn` again.
 */
export function useStepUp() {
  const modals = useModals();
  return useCallback(
    async <T,>(fn: () => Promise<T>): Promise<T> => {
      try {
        return await fn();
      } catch (e) {
        if (!needsStepUp(e)) throw e;
      }
      // Loaded only when asked: most enrolments happen right after a login, which needs no step-up.
      const { ConfirmPasswordDialog } = await import("./ConfirmPasswordDialog");
      await new Promise<void>((resolve, reject) =>
        modals.open((close) => (
          <ConfirmPasswordDialog
            onConfirmed={() => {
              close();
              resolve();
            }}
            onCancel={() => {
              close();
              reject(new StepUpCanceled());
            }}
          />
        )),
      );
      return fn();
    },
    [modals],
  );
}
