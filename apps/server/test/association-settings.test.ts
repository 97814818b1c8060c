import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { LOGO_MAX_BYTES, SM, type ResponseOf } from "@mutua/domain";
import { checkSvg, LOGO_MAX_DEPTH } from "../src/services/association/logo";
import { nestsDeeperThan } from "../src/services/association/logo-worker";
import { postMovement } from "../src/services/ledger/ledger";
import { getBackend } from "../src/services/wallets/wallets";
import { Api, createBackend, http, memberToken, newKey, openTestLedgerWallet, seedMember, walletBalances, type TestServer } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * The owners' settings (services/association/settings.ts): read and saved at once, applied by
 * every instance without a restart, refused when stale or wrong with nothing changed, audited;
 * a ledger backend's new floor moves nobody and stops whoever is below it; the logo is an image
 * and nothing else.
 */
const t = setupServerTest();
type Settings = ResponseOf<"getAssociationSettings">;

async function ownerApi() {
  const owner = await seedMember(t.db, { canManageAssociation: true });
  return { owner, api: new Api(t.server.baseUrl, await memberToken(t.db, owner.id)) };
}

/** The body that saves `s` as it is, with `change` applied. */
function body(s: Settings, change: (b: ReturnType<typeof asBody>) => void = () => {}) {
  const b = asBody(s);
  change(b);
  return b;
}
function asBody(read: Settings) {
  const s = structuredClone(read);
  const { logoUrl: _logo, ...identity } = s.identity;
  return {
    identity,
    money: { ...s.money, backends: s.money.backends.map(({ kind: _kind, ...b }) => b) },
    basedOn: s.updatedAt,
  };
}

async function config(server: TestServer) {
  return (await http<{ theme: Record<string, string>; helpUrl?: string; logoUrl?: string; disableTopUp: boolean }>(server.baseUrl, "GET", "/config.json")).json;
}

/** The start of a PNG as its header says it is: the signature and an IHDR chunk of that size (nothing to draw follows). */
function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(17);
  ihdr.write("IHDR", 0, "latin1");
  ihdr.writeUInt32BE(width, 4);
  ihdr.writeUInt32BE(height, 8);
  ihdr.set([8, 6, 0, 0, 0], 12); // 8 bits, RGBA, the only compression, filter and interlace methods
  const chunk = Buffer.alloc(25);
  chunk.writeUInt32BE(13, 0);
  ihdr.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(ihdr), 21);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk]);
}

/** An SVG of `levels` groups one inside the other. */
const nestedSvg = (levels: number) => `<svg xmlns="http://www.w3.org/2000/svg">${"<g>".repeat(levels)}<circle r="1"/>${"</g>".repeat(levels)}</svg>`;

async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("never");
}

describe("the association's settings", () => {
  it("an owner saves the identity and money settings; both instances serve them at once; the audit log has before and after", async () => {
    const { owner, api } = await ownerApi();
    const second = await t.startServer();
    const read = await api.call("getAssociationSettings");
    expect(read.status).toBe(200);
    const saved = await api.call("saveAssociationSettings", {
      body: body(read.json, (b) => {
        b.identity.name = "Le Florain";
        b.identity.theme.primaryColor = "#8A2BE2";
        b.identity.helpUrl = "https://florain.example/help";
        b.identity.allowSignup = false;
        b.money.currencyName = "Florain";
        b.money.currencySymbol = "FLO";
        b.money.bank = { iban: "FR76 3000 6000 0112 3456 7890 189", bic: "agrifrpp", holder: "" };
      }),
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json.identity).toMatchObject({ name: "Le Florain", theme: { primaryColor: "#8a2be2" }, allowSignup: false });
    expect(saved.json.money).toMatchObject({ currencySymbol: "FLO", bank: { iban: "FR7630006000011234567890189", bic: "AGRIFRPP", holder: "Le Florain" } });

    for (const server of [t.server, second]) {
      await until(async () => (await config(server)).theme["primary-color"] === "#8a2be2");
      expect(await config(server)).toMatchObject({ helpUrl: "https://florain.example/help" });
      expect((await http(server.baseUrl, "GET", "/api/auth/can-signup")).json).toEqual({ allowed: false });
    }
    expect(await config(t.server)).toEqual(await config(second));

    const { rows } = await t.db.query<{ member_id: bigint; details: { before: Record<string, unknown>; after: Record<string, unknown> } }>(
      "SELECT member_id, details FROM audit_log WHERE action = 'association.settings_changed' ORDER BY id DESC LIMIT 1",
    );
    expect(rows[0]!.member_id).toBe(owner.id);
    expect(rows[0]!.details.before).toMatchObject({ "identity.name": "Association", "money.currencySymbol": "AC", "identity.theme.primaryColor": null });
    expect(rows[0]!.details.after).toMatchObject({ "identity.name": "Le Florain", "money.currencySymbol": "FLO", "identity.theme.primaryColor": "#8a2be2" });
  });

  it("refuses a save based on settings someone saved since (409), and wrong values with each field's reason (400); nothing changes", async () => {
    const { api } = await ownerApi();
    const read = (await api.call("getAssociationSettings")).json;
    const first = await api.call("saveAssociationSettings", { body: body(read, (b) => (b.identity.name = "First")) });
    expect(first.status).toBe(200);
    const stale = await api.call("saveAssociationSettings", { body: body(read, (b) => (b.identity.name = "Second")) });
    expect(stale.status).toBe(409);
    expect(stale.json.error.message).toBe(SM.settingsChangedMeanwhile);

    const now = (await api.call("getAssociationSettings")).json;
    expect(now.identity.name).toBe("First");
    const wrong = await api.call("saveAssociationSettings", {
      body: body(now, (b) => {
        b.money.currencySymbol = "F L O";
        b.money.bank.iban = "FR76 0000";
        b.identity.name = "";
      }),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.fields).toMatchObject({
      "money.currencySymbol": { msgid: SM.symbolInvalid },
      "money.bank.iban": { msgid: SM.ibanInvalid },
      "identity.name": { msgid: "This fiels can not be empty." },
    });
    const link = await api.call("saveAssociationSettings", { body: body(now, (b) => (b.identity.helpUrl = "javascript:alert(1)")) });
    expect(link.status).toBe(400);
    expect((await api.call("getAssociationSettings")).json).toEqual(now);
  });

  it("refuses a symbol with hidden characters as setup does, and a link to another server written as a path; nothing changes", async () => {
    const { api } = await ownerApi();
    const read = (await api.call("getAssociationSettings")).json;
    for (const symbol of ["FL\u202EO", "FL\u200BO", "F\u0007"]) {
      const r = await api.call("saveAssociationSettings", { body: body(read, (b) => (b.money.currencySymbol = symbol)) });
      expect(r.status, JSON.stringify(symbol)).toBe(400);
      expect(r.json.error.fields).toMatchObject({ "money.currencySymbol": { msgid: SM.symbolInvalid } });
    }
    for (const link of ["//evil.example/help", "/\\evil.example/help", "/\t/evil.example"]) {
      const r = await api.call("saveAssociationSettings", { body: body(read, (b) => (b.identity.helpUrl = link)) });
      expect(r.status, link).toBe(400);
      expect(r.json.error.fields).toMatchObject({ "identity.helpUrl": { msgid: SM.linkInvalid } });
    }
    expect((await api.call("getAssociationSettings")).json).toEqual(read);
    const fine = await api.call("saveAssociationSettings", {
      body: body(read, (b) => {
        b.identity.helpUrl = "/help/members";
        b.money.currencySymbol = "Ğ1";
        b.money.bank.iban ||= "FR76 3000 6000 0112 3456 7890 189";
      }),
    });
    expect(fine.status, fine.text).toBe(200);
    expect(fine.json.identity.helpUrl).toBe("/help/members");
    expect(fine.json.money.currencySymbol).toBe("Ğ1");
  });

  it("a ledger backend's raised floor: the owner is told who is below it; nobody's balance moves; below it one cannot pay, above it one can", async () => {
    const { api } = await ownerApi();
    const backend = await createBackend(t.db, { kind: "ledger", cmFloor: "-100.00", cmCeiling: "1000.00" });
    // The test association's currency is the backend's, as setup makes it.
    await t.db.query("UPDATE association SET currency_id = $1", [backend.currency_id]);
    const wallet = async () => (await openTestLedgerWallet(t.db, backend, (await seedMember(t.db)).id)).id;
    const [deep, shallow, shop, own] = [await wallet(), await wallet(), await wallet(), await wallet()];
    const pay = (from: string, to: string, amount: bigint) =>
      postMovement(t.db, {
        kind: "payment",
        payerWalletId: from,
        payeeWalletId: to,
        parts: [{ account: "cm", amount }],
        senderMemo: "",
        recipientMemo: "",
        idempotencyKey: newKey(),
        initiatedBy: null,
      });
    await pay(deep, shop, 8000n); // -80.00
    await pay(shallow, shop, 1000n); // -10.00
    await pay(own, shop, 9000n); // -90.00, but an administrator gave it a floor of its own
    await t.db.query("UPDATE accounts SET floor = -20000, own_limits = true WHERE wallet_id = $1 AND kind = 'cm'", [own]);

    const read = (await api.call("getAssociationSettings")).json;
    expect(read.money.backends).toEqual([{ id: backend.id, kind: "ledger", floor: "-100.00", ceiling: "1000.00", topUpMin: null, topUpMax: null }]);
    expect((await api.call("getFloorImpact", { query: { backendId: backend.id, floor: "-50.00" } })).json).toEqual({ below: 1 });

    const before = await Promise.all([deep, shallow, shop, own].map((w) => walletBalances(t.db, w)));
    const saved = await api.call("saveAssociationSettings", {
      body: body(read, (b) => {
        b.money.backends[0]!.floor = "-50.00";
        b.money.bank.iban = "FR7630006000011234567890189";
      }),
    });
    expect(saved.status, saved.text).toBe(200);
    // The audit log names the backend by its id, which says which one changed, not by its place in the list.
    const { rows: logged } = await t.db.query("SELECT details FROM audit_log WHERE action = 'association.settings_changed' ORDER BY id DESC LIMIT 1");
    expect(logged[0]!.details).toMatchObject({
      before: { [`money.backends.${backend.id}.floor`]: "-100.00" },
      after: { [`money.backends.${backend.id}.floor`]: "-50.00" },
    });
    expect(await Promise.all([deep, shallow, shop, own].map((w) => walletBalances(t.db, w)))).toEqual(before);

    // Below the new floor: not a cent more of mutual credit. What they receive does not reopen it:
    // they stay stopped until they are back above the floor, and then go down to it, not past it.
    await expect(pay(deep, shop, 1n)).rejects.toMatchObject({ code: "insufficient_balance" });
    await pay(shop, deep, 500n); // -75.00
    await expect(pay(deep, shop, 1n)).rejects.toMatchObject({ code: "insufficient_balance" });
    await pay(shop, deep, 3500n); // -40.00
    await pay(deep, shop, 1000n); // -50.00
    await expect(pay(deep, shop, 1n)).rejects.toMatchObject({ code: "insufficient_balance" });
    // Above it: down to the new floor, not past it.
    await pay(shallow, shop, 4000n);
    await expect(pay(shallow, shop, 1n)).rejects.toMatchObject({ code: "insufficient_balance" });
    // The floor an administrator set for one member is theirs still.
    await pay(own, shop, 10000n);
    // New members get the new floor (their wallet opened as the app opens it, from the backend as it is now).
    const newcomer = (await openTestLedgerWallet(t.db, (await getBackend(t.db, backend.id))!, (await seedMember(t.db)).id)).id;
    await pay(newcomer, shop, 5000n);
    await expect(pay(newcomer, shop, 1n)).rejects.toMatchObject({ code: "insufficient_balance" });

    // Lowered again, the floor reaches every member who follows the backend, those once stopped too.
    const again = (await api.call("getAssociationSettings")).json;
    expect((await api.call("saveAssociationSettings", { body: body(again, (b) => (b.money.backends[0]!.floor = "-100.00")) })).status).toBe(200);
    await pay(deep, shop, 5000n); // -100.00
    await expect(pay(deep, shop, 1n)).rejects.toMatchObject({ code: "insufficient_balance" });
    await t.db.query("UPDATE association SET currency_id = 'association'");
  });

  it("a logo: a PNG is kept as it is, an SVG without its scripts; it is served as an image that runs nothing, and removed", async () => {
    const { api } = await ownerApi();
    const notPng = await api.call("uploadAssociationLogo", { body: { type: "image/png", data: Buffer.from("GIF89a").toString("base64") } });
    expect(notPng.status).toBe(400);
    expect(notPng.json.error.message).toBe(SM.logoInvalid);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)"><circle cx="5" cy="5" r="4" fill="#1f6f5c"/></a><foreignObject><iframe src="https://evil.example"></iframe></foreignObject></svg>`;
    const up = await api.call("uploadAssociationLogo", { body: { type: "image/svg+xml", data: Buffer.from(svg).toString("base64") } });
    expect(up.status, up.text).toBe(200);
    expect(up.json.identity.logoUrl).toMatch(/^\/association\/logo\?v=[0-9a-f]{12}$/);
    await until(async () => (await config(t.server)).logoUrl === up.json.identity.logoUrl);

    const served = await http(t.server.baseUrl, "GET", up.json.identity.logoUrl!);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toContain("image/svg+xml");
    expect(served.headers.get("content-security-policy")).toContain("sandbox");
    expect(served.text).toContain("<circle");
    for (const bad of ["onload", "<script", "alert", "javascript:", "foreignObject", "iframe", "evil.example"]) expect(served.text).not.toContain(bad);

    // A body past the upload's limit is refused before it is read.
    const huge = await http(t.server.baseUrl, "POST", "/api/admin/settings/logo", {
      token: await memberToken(t.db, (await seedMember(t.db, { canManageAssociation: true })).id),
      body: { type: "image/png", data: "A".repeat(600 * 1024) },
    });
    expect(huge.status).toBeGreaterThanOrEqual(400);
    expect(huge.status).toBeLessThan(500);

    expect((await api.call("removeAssociationLogo")).json.identity.logoUrl).toBeNull();
    expect((await http(t.server.baseUrl, "GET", "/association/logo")).status).toBe(404);
    const { rows } = await t.db.query<{ action: string }>("SELECT action FROM audit_log WHERE action LIKE 'association.logo%' ORDER BY id");
    expect(rows.map((r) => r.action)).toEqual(["association.logo_changed", "association.logo_removed"]);
  });

  it("refuses an SVG nested deeper than a logo is, at once and before any DOM is built, while the server answers others; nothing is stored", async () => {
    const { api } = await ownerApi();
    // The size limit's worth of groups, one in another: the sanitiser took minutes over such a file, then failed.
    const svg = nestedSvg(Math.floor((LOGO_MAX_BYTES - 200) / 7));
    expect(Buffer.byteLength(svg)).toBeLessThanOrEqual(LOGO_MAX_BYTES);
    const upload = api.call("uploadAssociationLogo", { body: { type: "image/svg+xml", data: Buffer.from(svg).toString("base64") } });
    expect((await api.call("health")).status).toBe(200);
    const refused = await upload;
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ msgid: SM.logoNestedTooDeep, values: { max: LOGO_MAX_DEPTH } });
    expect((await api.call("getAssociationSettings")).json.identity.logoUrl).toBeNull();
    const { rows } = await t.db.query("SELECT 1 FROM association WHERE logo IS NOT NULL");
    expect(rows).toEqual([]);

    // Counted as the sanitiser's parser nests them: by depth, not by tags written.
    expect(nestsDeeperThan(nestedSvg(LOGO_MAX_DEPTH - 2), LOGO_MAX_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nestedSvg(LOGO_MAX_DEPTH), LOGO_MAX_DEPTH)).toBe(true);
    expect(nestsDeeperThan(`<svg>${'<path d="M0 0"/>'.repeat(5000)}</svg>`, LOGO_MAX_DEPTH)).toBe(false);
    // Where HTML is parsed (inside foreignObject, or a template's content), <x/> opens an element it does not close.
    expect(nestsDeeperThan(`<svg><foreignObject>${"<x/>".repeat(40)}</foreignObject></svg>`, LOGO_MAX_DEPTH)).toBe(true);
    expect(nestsDeeperThan(`<template>${"<g>".repeat(40)}</template>`, LOGO_MAX_DEPTH)).toBe(true);
    // A quote or a comment does not hide tags the parser reads.
    expect(nestsDeeperThan(`<svg><g a"b>${"<g>".repeat(40)}</svg>`, LOGO_MAX_DEPTH)).toBe(true);
    expect(nestsDeeperThan(`<foreignObject><style><!--</style>${"<g>".repeat(40)}--></svg>`, LOGO_MAX_DEPTH)).toBe(true);
  });

  it("cleans an SVG on a thread of its own under a time limit: others are answered meanwhile, and one past its time is refused", async () => {
    const { api } = await ownerApi();
    // Past the depth check (lifted here), the sanitiser spends seconds on these groups.
    const order: string[] = [];
    const hard = checkSvg(nestedSvg(14_000), { maxDepth: Infinity, ms: 2_000 }).then((v) => (order.push("svg"), v));
    await api.call("health").then(() => order.push("health"));
    expect(await hard).toEqual({ kind: "tooSlow" });
    expect(order).toEqual(["health", "svg"]);

    // Its thread ended, the next SVG gets another.
    const fine = await api.call("uploadAssociationLogo", { body: { type: "image/svg+xml", data: Buffer.from(nestedSvg(5)).toString("base64") } });
    expect(fine.status, fine.text).toBe(200);
    expect(fine.json.identity.logoUrl).not.toBeNull();
    expect((await api.call("removeAssociationLogo")).status).toBe(200);
  });

  it("refuses a logo past 100 KB, and a PNG whose header says more pixels than a logo has; nothing is stored", async () => {
    const { api } = await ownerApi();
    const big = `<svg xmlns="http://www.w3.org/2000/svg">${'<path d="M0 0h1"/>'.repeat(6000)}</svg>`;
    expect(Buffer.byteLength(big)).toBeGreaterThan(LOGO_MAX_BYTES);
    const tooBig = await api.call("uploadAssociationLogo", { body: { type: "image/svg+xml", data: Buffer.from(big).toString("base64") } });
    expect(tooBig.status).toBe(400);
    expect(tooBig.json.error.msgid).toBe(SM.logoInvalid);

    for (const [w, h] of [
      [30_000, 30_000],
      [2049, 10],
      [10, 2049],
    ] as const) {
      const huge = await api.call("uploadAssociationLogo", { body: { type: "image/png", data: pngHeader(w, h).toString("base64") } });
      expect(huge.status, `${w}×${h}`).toBe(400);
      expect(huge.json.error).toMatchObject({ msgid: SM.logoTooManyPixels, values: { side: 2048 } });
    }
    expect((await api.call("getAssociationSettings")).json.identity.logoUrl).toBeNull();

    const fine = await api.call("uploadAssociationLogo", { body: { type: "image/png", data: pngHeader(2048, 2048).toString("base64") } });
    expect(fine.status, fine.text).toBe(200);
    expect((await api.call("removeAssociationLogo")).status).toBe(200);
  });
});
