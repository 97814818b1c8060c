import type { z } from "zod";
import type { RouteName } from "./routes";
import type { schemas } from "./schemas";

type S = typeof schemas;

/** Request body of an operation (never for bodiless ones). */
export type BodyOf<K extends RouteName> = S[K] extends { body: z.ZodType } ? z.input<S[K]["body"]> : undefined;
/** Query string of an operation. */
export type QueryOf<K extends RouteName> = S[K] extends { query: z.ZodType } ? z.input<S[K]["query"]> : undefined;
/** Answer of an operation. */
export type ResponseOf<K extends RouteName> = z.output<S[K]["response"]>;

export type Profile = ResponseOf<"getMyContact">;
export type Backend = ResponseOf<"getBackends">[number];
export type LoginResult = ResponseOf<"login">;
