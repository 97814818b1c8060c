import { describe, expect, it } from "vitest";
import { M, buildPath } from "@mutua/domain";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../src/http/json-body";
import { countMembers, http, type ErrorJson } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * A JSON body nested ten thousand deep (a few kilobytes) overflowed the stack
 * of whatever walked it and answered 500, on anonymous routes too. It is a 400 in the API's format.
 */
const t = setupServerTest();

const arrays = (n: number) => "[".repeat(n) + "]".repeat(n);
const objects = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);
const post = (path: string, rawBody: string) => http<ErrorJson>(t.server.baseUrl, "POST", path, { rawBody, headers: { "content-type": "application/json" } });

describe("JSON bodies nested too deep", () => {
  it.each([
    ["arrays", arrays],
    ["objects", objects],
  ])("POST /api/auth/login with %s 10,000 deep: 400 validation_failed, not 500", async (_, nested) => {
    const r = await post(buildPath("login"), nested(10_000));
    expect(r.status, r.text.slice(0, 200)).toBe(400);
    expect(r.json.error).toMatchObject({ code: "validation_failed", message: M.invalidRequest, msgid: M.invalidRequest });
  });

  it("the same on the Lokavaluto face, which parses its own bodies", async () => {
    const before = await countMembers(t.db);
    const r = await post("/lokavaluto_api/public/auth/signup", `{"login":${arrays(10_000)}}`);
    expect(r.status, r.text.slice(0, 200)).toBe(400);
    expect(await countMembers(t.db)).toBe(before);
  });

  it("still reads ordinary bodies, brackets inside strings included, and still refuses prototype poisoning", async () => {
    const login = await post(buildPath("login"), JSON.stringify({ login: "nobody@example.org", password: "[{".repeat(500) }));
    expect(login.status, login.text.slice(0, 200)).toBe(401);
    expect(login.json.error.code).toBe("invalid_credentials");
    for (const poisoned of ['{"login":"a@example.org","password":"x","__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"isAdmin":true}}}']) {
      const r = await post(buildPath("login"), poisoned);
      expect(r.status, poisoned).toBe(400);
      expect(r.json.error.code).toBe("validation_failed");
    }
  });

  it("counts depth on the text, ignoring brackets in strings and escaped quotes", () => {
    expect(nestsDeeperThan(arrays(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(arrays(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(objects(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(JSON.stringify({ a: "[[[[{{{{", b: 'x\\"[[[[' }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify(["\\", [[1]]]), 2)).toBe(true);
  });
});
