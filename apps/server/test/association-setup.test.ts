import { describe, expect, it } from "vitest";
import pg from "pg";
import { AssociationSetup, setupProblems, type AssociationSetupInput } from "@mutua/domain";
import { describeSetup, setUpAssociation } from "../src/services/association/setup";
import type { Mail } from "../src/services/platform/mail";
import { http, seedMember } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * `npm run setup`'s work (services/association/setup.ts) on an empty database: everything made in
 * one transaction, nothing made twice, nothing made over another association, and a running
 * server that picks the association up at once.
 */
const t = setupServerTest({ server: false });
const FLORAIN: AssociationSetupInput = {
  association: { name: "Le Florain" },
  currency: { name: "Florain", symbol: "FLO" },
  backends: { custodial: { topUpMin: "5", topUpMax: "500" }, ledger: { floor: "-100", ceiling: "1000", topUpMin: "5.00", topUpMax: "500.00" } },
  bank: { iban: "FR76 3000 6000 0112 3456 7890 189", bic: "AGRIFRPP", holder: "" },
  administrator: { firstName: "Ada", lastName: "Lovelace", email: " Ada@Florain.example " },
};
const parse = (input: AssociationSetupInput) => AssociationSetup.parse(input);
const SETTINGS = { publicUrl: "https://florain.example" };

/** The rows setup writes, counted. */
async function counts() {
  const { rows } = await t.db.query<Record<string, number>>(
    `SELECT (SELECT count(*)::int FROM association) AS association, (SELECT count(*)::int FROM currencies) AS currencies,
       (SELECT count(*)::int FROM backends) AS backends, (SELECT count(*)::int FROM wallets) AS wallets,
       (SELECT count(*)::int FROM accounts) AS accounts, (SELECT count(*)::int FROM members) AS members,
       (SELECT count(*)::int FROM password_resets) AS links, (SELECT count(*)::int FROM audit_log) AS audit`,
  );
  return rows[0]!;
}

/** The file's database as setup finds it on a new server: migrated, nothing in it. */
async function emptyDatabase() {
  await t.db.query("TRUNCATE association, currencies, backends, wallets, accounts, members, password_resets, audit_log CASCADE");
}

describe("npm run setup's transaction", () => {
  it("refuses a bad setup with every problem and where it is", () => {
    const r = AssociationSetup.safeParse({
      ...FLORAIN,
      currency: { name: "Florain", symbol: "F L O" },
      backends: { ledger: { floor: "100", topUpMin: "5", topUpMax: "1" } },
      bank: { iban: "FR76 0000", bic: "", holder: "" },
      extra: true,
    });
    expect(r.success).toBe(false);
    expect(setupProblems(r.error!)).toEqual([
      "currency.symbol: The currency's symbol cannot hold spaces.",
      "backends.ledger.floor: The floor is 0 or below (members may owe at most that much).",
      "backends.ledger.topUpMax: The top-up maximum is at least the minimum.",
      "bank.iban: This IBAN is not valid (its check digits do not match).",
      '(the file): Unrecognized key "extra"; the keys accepted here are association, currency, backends, topUps, reconversions, bank, administrator.',
    ]);
    // A kind of backend that does not exist is named with the ones that do; a misspelt key with the keys of its place.
    expect(
      setupProblems(
        AssociationSetup.safeParse({ ...FLORAIN, backends: { blockchain: {}, ledger: { floor: "-1", topUpMin: "1", topUpMax: "2", celing: "5" } } }).error!,
      ),
    ).toEqual([
      'backends.ledger: Unrecognized key "celing"; the keys accepted here are floor, ceiling, topUpMin, topUpMax.',
      'backends: Unrecognized key "blockchain"; the kinds of backend are custodial, ledger.',
    ]);
    expect(setupProblems(AssociationSetup.safeParse({ ...FLORAIN, topUps: "yes" }).error!)).toEqual(["topUps: true or false is expected (without quotes)."]);
    expect(setupProblems(AssociationSetup.safeParse({ ...FLORAIN, backends: {} }).error!)).toEqual([
      "backends: At least one backend is needed: custodial, ledger or both.",
    ]);
  });

  it("refuses an account holder that holds a line break or another control character, as every one-line field does", () => {
    for (const holder of ["Le Florain\r\nBcc: mallory@evil.example", "Le Florain\nIBAN: FR76 0000", "Le\u0007Florain"]) {
      const r = AssociationSetup.safeParse({ ...FLORAIN, bank: { ...FLORAIN.bank, holder } });
      expect(r.success, JSON.stringify(holder)).toBe(false);
      expect(setupProblems(r.error!)).toEqual(["bank.holder: The account holder holds characters that are not allowed."]);
    }
    expect(setupProblems(AssociationSetup.safeParse({ ...FLORAIN, bank: { ...FLORAIN.bank, holder: "x".repeat(101) } }).error!)).toEqual([
      "bank.holder: The account holder is too long (at most 100 characters).",
    ]);
    // Empty, the association's name holds the account; spaces about it are dropped as before.
    expect(parse({ ...FLORAIN, bank: { ...FLORAIN.bank, holder: "  Le Florain SCIC \n" } }).bank.holder).toBe("Le Florain SCIC");
    expect(parse(FLORAIN).bank.holder).toBe("");
  });

  it("makes the currency, both backends and their system wallets, the association and its first administrator with every right and a week's link", async () => {
    await emptyDatabase();
    const outcome = await setUpAssociation(t.db, SETTINGS, parse(FLORAIN), "en-US");
    expect(outcome.kind).toBe("created");
    expect(await counts()).toEqual({ association: 1, currencies: 1, backends: 2, wallets: 4, accounts: 4, members: 1, links: 1, audit: 1 });
    const { rows: backends } = await t.db.query("SELECT id, cm_floor, cm_ceiling, min_credit_amount, max_credit_amount FROM backends ORDER BY id");
    expect(backends).toEqual([
      { id: "custodial:florain", cm_floor: 0n, cm_ceiling: null, min_credit_amount: 500n, max_credit_amount: 50000n },
      { id: "ledger:florain", cm_floor: -10000n, cm_ceiling: 100000n, min_credit_amount: 500n, max_credit_amount: 50000n },
    ]);
    const { rows: assoc } = await t.db.query("SELECT name, currency_id, bank_iban, bank_bic, bank_holder, topups_enabled FROM association");
    expect(assoc).toEqual([
      {
        name: "Le Florain",
        currency_id: "florain",
        bank_iban: "FR7630006000011234567890189",
        bank_bic: "AGRIFRPP",
        bank_holder: "Le Florain",
        topups_enabled: true,
      },
    ]);
    const { rows: admin } = await t.db.query(
      `SELECT m.email, m.can_validate_accounts, m.can_validate_credits, m.can_view_figures, m.can_manage_association,
         r.expires_at > now() + interval '6 days' AS week
       FROM members m JOIN password_resets r ON r.member_id = m.id`,
    );
    expect(admin).toEqual([
      {
        email: "ada@florain.example",
        can_validate_accounts: true,
        can_validate_credits: true,
        can_view_figures: true,
        can_manage_association: true,
        week: true,
      },
    ]);
    if (outcome.kind !== "created") throw new Error("not created");
    expect(outcome.mail.to).toBe("ada@florain.example");
    expect(outcome.mail.text).toMatch(/https:\/\/florain\.example\/reset-password\?token=[\w-]{43}\n/);
    // The entry says it ran from the command line: no member did it.
    const { rows: entries } = await t.db.query("SELECT member_id, action, details->>'by' AS by FROM audit_log");
    expect(entries).toEqual([{ member_id: null, action: "association.setup", by: "npm run setup" }]);
  });

  it("writes the first administrator's e-mail in the association's language: French when it is French, else English", async () => {
    const mailIn = async (language: string) => {
      await emptyDatabase();
      const outcome = await setUpAssociation(t.db, SETTINGS, parse(FLORAIN), language);
      if (outcome.kind !== "created") throw new Error("not created");
      return { ...outcome.mail, text: outcome.mail.text.replace(/token=[\w-]+/, "token=…") };
    };
    expect(await mailIn("fr-FR")).toEqual({
      to: "ada@florain.example",
      subject: "Le Florain est sur Mutua : choisissez votre mot de passe",
      text:
        "Bonjour Ada,\n\nLe Florain est en place sur Mutua, et vous en êtes le premier administrateur : vous avez tous les droits,\n" +
        "et vous les confiez à d'autres depuis la fiche d'un membre.\n\n" +
        "Ouvrez ce lien dans les 7 jours pour choisir votre mot de passe (il ne sert qu'une fois) :\n\n" +
        "https://florain.example/reset-password?token=…\n\nPuis connectez-vous sur https://florain.example avec ada@florain.example.\n",
    });
    // A language the server has no words for: English, as before.
    expect(await mailIn("de-DE")).toEqual({
      to: "ada@florain.example",
      subject: "Le Florain is ready on Mutua: choose your password",
      text:
        "Hello Ada,\n\nLe Florain is set up on Mutua, and you are its first administrator: you hold every right,\n" +
        "and you hand them out to others from a member's page.\n\n" +
        "Open this link within 7 days to choose your password (it works once):\n\n" +
        "https://florain.example/reset-password?token=…\n\nThen sign in at https://florain.example with ada@florain.example.\n",
    });
  });

  it("run again with the same answers changes nothing; after the owners changed settings it changes nothing and says what differs; another association's answers are refused", async () => {
    const before = await counts();
    const again = await setUpAssociation(t.db, SETTINGS, parse(FLORAIN), "en-US");
    expect(again.kind).toBe("unchanged");
    // The owners changed the symbol and turned reconversions off in the app since: the file, run
    // again by a provisioning script, leaves their settings alone and succeeds.
    await t.db.query("UPDATE currencies SET symbol = 'FLR'");
    await t.db.query("UPDATE association SET reconversions_enabled = false");
    const since = await setUpAssociation(t.db, SETTINGS, parse(FLORAIN), "en-US");
    expect(since).toMatchObject({
      kind: "changedSince",
      differences: ["Currency: Florain (FLO)", "Top-ups on, reconversions on"],
      summary: expect.arrayContaining(["Currency: Florain (FLR)", "Top-ups on, reconversions off"]),
    });
    // Another currency is another association: refused.
    const other = await setUpAssociation(t.db, SETTINGS, parse({ ...FLORAIN, currency: { name: "Galet", symbol: "GAL" } }), "en-US");
    expect(other).toMatchObject({ kind: "exists", summary: expect.arrayContaining(["Association: Le Florain", "Currency: Florain (FLR)"]) });
    expect(await counts()).toEqual(before);
    await t.db.query("UPDATE currencies SET symbol = 'FLO'");
    await t.db.query("UPDATE association SET reconversions_enabled = true");
  });

  it("recaps every choice, in the words it describes an association with", () => {
    expect(describeSetup(parse(FLORAIN))).toEqual([
      "Association: Le Florain",
      "Currency: Florain (FLO)",
      "Backend custodial:florain: top-ups from 5.00 FLO to 500.00 FLO",
      "Backend ledger:florain: mutual credit from -100.00 FLO to 1000.00 FLO; top-ups from 5.00 FLO to 500.00 FLO",
      "Top-ups on, reconversions on",
      "Bank account: IBAN FR7630006000011234567890189, BIC AGRIFRPP, holder Le Florain",
      "First administrator: Ada Lovelace <ada@florain.example>",
    ]);
  });

  it("two setups at once make one association", async () => {
    await emptyDatabase();
    const outcomes = await Promise.all([setUpAssociation(t.db, SETTINGS, parse(FLORAIN), "en-US"), setUpAssociation(t.db, SETTINGS, parse(FLORAIN), "en-US")]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(["created", "unchanged"]);
    expect(await counts()).toMatchObject({ association: 1, currencies: 1, backends: 2, members: 1 });
  });

  it("refuses a database that has members made before setup", async () => {
    await emptyDatabase();
    await seedMember(t.db);
    const outcome = await setUpAssociation(t.db, SETTINGS, parse(FLORAIN), "en-US");
    expect(outcome.kind).toBe("exists");
    expect(await counts()).toMatchObject({ association: 0, currencies: 0, members: 1 });
  });

  it("cut off mid-way (its connection killed while it writes), it leaves nothing", async () => {
    await emptyDatabase();
    // Another session holds the table setup writes last, so setup stops there with the rest written.
    const blocker = new pg.Client({ connectionString: t.tdb.url });
    await blocker.connect();
    try {
      await blocker.query("BEGIN");
      await blocker.query("LOCK TABLE password_resets IN ACCESS EXCLUSIVE MODE");
      const running = setUpAssociation(t.db, SETTINGS, parse(FLORAIN), "en-US").then(
        () => null,
        (e: unknown) => e as Error,
      );
      let pid: number | undefined;
      for (let i = 0; i < 200 && pid === undefined; i++) {
        // Waiting for the table (pg_locks: pg_stat_activity may still show the statement before).
        const { rows } = await blocker.query<{ pid: number }>("SELECT pid FROM pg_locks WHERE relation = 'password_resets'::regclass AND NOT granted");
        pid = rows[0]?.pid;
        if (pid === undefined) await new Promise((r) => setTimeout(r, 50));
      }
      expect(pid).toBeDefined();
      await blocker.query("SELECT pg_terminate_backend($1)", [pid]);
      expect(await running).toBeInstanceOf(Error);
      await blocker.query("ROLLBACK");
    } finally {
      await blocker.end();
    }
    expect(await counts()).toEqual({ association: 0, currencies: 0, backends: 0, wallets: 0, accounts: 0, members: 0, links: 0, audit: 0 });
  });

  it("the first administrator's link is for a first password: checked when its page opens, and no 'password changed' mail follows", async () => {
    await emptyDatabase();
    const sent: Mail[] = [];
    const server = await t.startServer({ mailer: { send: async (m) => void sent.push(m) }, env: { PUBLIC_URL: "https://florain.example" } });
    const outcome = await setUpAssociation(t.db, SETTINGS, parse(FLORAIN), "en-US");
    if (outcome.kind !== "created") throw new Error("not created");
    const token = /token=([\w-]+)/.exec(outcome.mail.text)![1]!;
    const check = (tk: string) => http<{ firstPassword?: boolean; error?: { message: string } }>(server.baseUrl, "GET", `/api/auth/reset-password?token=${tk}`);

    expect((await check(token)).json).toEqual({ firstPassword: true });
    // Checking does not use the link up.
    expect((await check(token)).json).toEqual({ firstPassword: true });
    const set = await http(server.baseUrl, "POST", "/api/auth/new-password", { body: { token, password: "Florain-2026!" } });
    expect(set.status).toBe(200);
    expect(sent).toEqual([]);
    const { rows } = await t.db.query("SELECT details FROM audit_log WHERE action = 'password.reset'");
    expect(rows).toEqual([{ details: { deviceLoginsRemoved: 0, firstPassword: true } }]);

    // Used, it says so at once, before any password is typed; a made-up one alike.
    for (const tk of [token, "not-a-token"]) {
      const used = await check(tk);
      expect(used.status).toBe(400);
      expect(used.json.error!.message).toBe("This password reset link is invalid or has expired. Please ask for a new one.");
    }

    // A link asked for later is to change the password she has now: the mail tells her it changed.
    await http(server.baseUrl, "POST", "/api/auth/reset-password", { body: { email: "ada@florain.example" } });
    for (let i = 0; i < 100 && sent.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    const again = /token=([\w-]+)/.exec(sent[0]!.text)![1]!;
    expect((await check(again)).json).toEqual({ firstPassword: false });
    expect((await http(server.baseUrl, "POST", "/api/auth/new-password", { body: { token: again, password: "Florain-2027!" } })).status).toBe(200);
    expect(sent.map((m) => m.subject)).toHaveLength(2);
    expect(sent[1]!.text).toMatch(/changed/);
  });

  it("a link asked for when the welcome link expired unused is still for a first password", async () => {
    await emptyDatabase();
    const sent: Mail[] = [];
    const server = await t.startServer({ mailer: { send: async (m) => void sent.push(m) }, env: { PUBLIC_URL: "https://florain.example" } });
    await setUpAssociation(t.db, SETTINGS, parse(FLORAIN), "en-US");
    await t.db.query("UPDATE password_resets SET expires_at = now() - interval '1 second'");
    await http(server.baseUrl, "POST", "/api/auth/reset-password", { body: { email: "ada@florain.example" } });
    for (let i = 0; i < 100 && sent.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    const token = /token=([\w-]+)/.exec(sent[0]!.text)![1]!;
    expect((await http(server.baseUrl, "GET", `/api/auth/reset-password?token=${token}`)).json).toEqual({ firstPassword: true });
    expect((await http(server.baseUrl, "POST", "/api/auth/new-password", { body: { token, password: "Florain-2026!" } })).status).toBe(200);
    expect(sent).toHaveLength(1);
  });

  it("a server started before setup says so and refuses sign-ups; once setup runs, it serves the association at once", async () => {
    await emptyDatabase();
    const server = await t.startServer();
    const config = async () => (await http<{ setupRequired?: boolean }>(server.baseUrl, "GET", "/config.json")).json;
    expect(await config()).toMatchObject({ setupRequired: true });
    // Its first page says what to run, in the visitor's language, with no script, and asks again by itself.
    const page = await http(server.baseUrl, "GET", "/", { headers: { "accept-language": "fr-FR,fr;q=0.9,en;q=0.8" } });
    expect(page.status).toBe(200);
    expect(page.text).toContain("Pas encore configurée");
    expect(page.text).toContain("<code>npm run setup</code>");
    expect(page.text).toContain('<meta http-equiv="refresh" content="5">');
    expect(page.text).not.toContain("<script");
    expect((await http(server.baseUrl, "GET", "/dashboard")).text).toContain("Not set up yet");
    expect((await http(server.baseUrl, "GET", "/api/auth/can-signup")).json).toEqual({ allowed: false });
    const signup = await http(server.baseUrl, "POST", "/api/auth/signup", {
      body: { email: "first@example.org", firstName: "First", lastName: "Comer", password: "Test1234!" },
    });
    expect(signup.status).toBe(403);
    expect(await counts()).toMatchObject({ members: 0 });

    await setUpAssociation(t.db, SETTINGS, parse(FLORAIN), "en-US");
    // The association's trigger tells the server at commit: no restart, no wait for a cache to expire.
    for (let i = 0; i < 100 && (await config()).setupRequired; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await config()).not.toHaveProperty("setupRequired");
    expect((await http(server.baseUrl, "GET", "/")).text).not.toContain("Not set up yet");
    expect((await http(server.baseUrl, "GET", "/api/auth/can-signup")).json).toEqual({ allowed: true });
  });
});
