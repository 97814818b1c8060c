import type { FastifyRequest } from "fastify";
import sjson from "secure-json-parse";
import { ErrorCode, M } from "@mutua/domain";
import { Refusal } from "../services/platform/errors";

/** No request of the contract nests deeper than a handful of levels; 64 leaves room and no stack risk. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether a JSON text nests arrays and objects deeper than `max`. Counted on the text in one pass,
 * before parsing: the parser, the validator and every later walk of the body recurse, and a body
 * of ten thousand brackets (a few kilobytes) would overflow their stacks.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * A request body as JSON, or a 400 in the API's format: malformed, nested too deep, or carrying
 * `__proto__` / `constructor.prototype` keys (prototype poisoning, refused as Fastify's own parser does).
 */
export function parseJsonBody(text: string): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw new Refusal(ErrorCode.validation, { id: M.invalidRequest });
  try {
    return sjson.parse(text, undefined, { protoAction: "error", constructorAction: "error" });
  } catch {
    throw new Refusal(ErrorCode.validation, { id: M.invalidRequest });
  }
}

/** The bodies as they came, for the routes whose signature covers them (http/peer-signature.ts). */
const rawBodies = new WeakMap<FastifyRequest, string>();

/** Keeps a request's body as it came (the JSON parser does, for peer routes). */
export const keepRawBody = (req: FastifyRequest, text: string) => void rawBodies.set(req, text);

export const rawBodyOf = (req: FastifyRequest): string | undefined => rawBodies.get(req);
