import { RefusedError, RequestFailedError } from "@mutua/client";
import { M, type Msg } from "@mutua/domain";

/** What to tell the member of a failed change: the server's own reason when it refused, else that it did not go through. */
export function changeFailed(e: unknown): Msg {
  if (e instanceof RefusedError) return e.msg;
  if (e instanceof RequestFailedError) return { id: M.requestFailed };
  return { id: M.settingsSaveFailed };
}

/** The server's message for one field of the form, when it refused that field. */
export const fieldRefusal = (e: unknown, field: string): Msg | undefined => (e instanceof RefusedError ? e.fields[field] : undefined);
