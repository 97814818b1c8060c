import { RefusedError } from "@mutua/client";
import { M, type Msg } from "@mutua/domain";

/** What a refused or failed change says: the server's words when it refused, else that it did not go through. */
export const failure = (e: unknown): Msg => (e instanceof RefusedError ? e.msg : { id: M.requestFailed });
