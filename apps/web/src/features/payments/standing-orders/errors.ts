import { RefusedError } from "@mutua/client";
import { M, type Msg } from "@mutua/domain";

/** What a refused or failed change of an order says: the server's own words, else to try again. */
export const failure = (e: unknown): Msg => (e instanceof RefusedError ? e.msg : { id: M.pleaseRetry });
