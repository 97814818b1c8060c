import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { ADMIN_ROUTES, PUBLIC_ROUTES, buildPath, pathParamNames, rightOf, routes, type RouteName } from "../src";
import { schemas } from "../src/api/schemas";

const NAMES = Object.keys(routes) as RouteName[];

describe("the route table", () => {
  it("declares each path parameter once, in the path and in the params schema alike", () => {
    for (const name of NAMES) {
      const params = (schemas[name] as { params?: z.ZodObject }).params;
      expect(Object.keys(params?.shape ?? {}).sort(), name).toEqual(pathParamNames(name).sort());
    }
  });

  it("gives each method and path to one operation only", () => {
    const seen = NAMES.map((n) => `${routes[n].method} ${routes[n].path}`);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("derives the public operations and the rights from each route's access", () => {
    expect([...PUBLIC_ROUTES]).toEqual(NAMES.filter((n) => routes[n].access === "public"));
    expect(PUBLIC_ROUTES.has("login")).toBe(true);
    expect(PUBLIC_ROUTES.has("transfer")).toBe(false);
    expect(ADMIN_ROUTES.accounts).toContain("validateCreation");
    expect(ADMIN_ROUTES.credits).toContain("validateCredit");
    expect(ADMIN_ROUTES.both).toContain("listAuditLog");
    expect(rightOf("markTopUpPaid")).toBe("credits");
    expect(rightOf("transfer")).toBeUndefined();
    expect(rightOf("login")).toBeUndefined();
    // Every administrative path says so; no member path is under /api/admin/.
    for (const name of NAMES) expect(routes[name].path.startsWith("/api/admin/"), name).toBe(rightOf(name) !== undefined);
  });
});

describe("buildPath", () => {
  it("fills in and encodes the parameters", () => {
    expect(buildPath("login")).toBe("/api/auth/login");
    expect(buildPath("getBalance", { walletId: "custodial:12" })).toBe("/api/accounts/custodial%3A12/balance");
    expect(buildPath("setFavorite", { memberId: 7 })).toBe("/api/favorites/7");
    expect(buildPath("deletePasskey", { credentialId: "a/b?c" })).toBe("/api/passkeys/a%2Fb%3Fc");
  });

  it("throws for a missing parameter instead of sending a literal :name", () => {
    expect(() => buildPath("getBalance", {} as { walletId: string })).toThrow(/walletId/);
    // @ts-expect-error: the type asks for the parameters too
    expect(() => buildPath("getBalance")).toThrow(/walletId/);
  });
});
