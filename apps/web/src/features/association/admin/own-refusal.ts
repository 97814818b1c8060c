import { RefusedError } from "@mutua/client";
import { ErrorCode, type Msg } from "@mutua/domain";

/**
 * The server's words when it refuses an administrator's action on their own wallet or order
 * (another administrator must act): more useful than "could not be updated", which suggests a retry.
 */
export const ownRefusal = (e: unknown): Msg | undefined => (e instanceof RefusedError && e.code === ErrorCode.forbidden ? e.msg : undefined);
