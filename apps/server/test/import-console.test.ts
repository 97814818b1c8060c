import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorCode, SM } from "@mutua/domain";
import { smtpMailer } from "../src/services/platform/mail";
import type { BackendRow } from "../src/services/wallets/wallets";
import { Api, createBackend, memberToken, seedMember, type TestServer } from "./helpers";
import { importInvariantViolations } from "./import-invariants";
import { watchOutbox, type OutboxWatch } from "./outbox-watch";
import { setupServerTest } from "./setup";

/**
 * The owners' import in the console: files uploaded a part at a time into the database, the
 * preview and the import read from there by whichever instance; then the invitations, sent by the
 * instances' workers over SMTP at the throttle's pace, each once, a refused address reported, and
 * resumed by a new instance after the others stopped.
 */
const PUBLIC_URL = "https://wallet.example.test";
const FROM = "Mutua Test <no-reply@wallet.example.test>";

interface Received {
  to: string;
  raw: string;
  at: number;
}
let smtp: SMTPServer;
const inbox: Received[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    // A mailbox that does not exist: refused for good (a bounce at the door).
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith("nobody")) return callback(Object.assign(new Error("No such user here"), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        inbox.push({ to: session.envelope.rcptTo[0]!.address, raw: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once("error", reject);
    smtp.listen(0, "127.0.0.1", () => resolve());
  });
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const t = setupServerTest({ server: false });
let one: TestServer;
let two: TestServer;
let backend: BackendRow;
let owner: Api;
let otherOwner: Api;
let env: Record<string, string>;
let smtpUrl: string;
let outbox: OutboxWatch;

const MEMBERS = `external_id;first_name;last_name;email;language;balance
c1;Zoé;Martin;zoe.c@example.org;fr;120,00
c2;Paul;Durand;paul.c@example.org;en;30,50
c3;Nobody;Here;nobody.c@example.org;en;0
c4;Ada;Lovelace;ada.c@example.org;en;5
`;

async function upload(api: Api, kind: "members" | "history", name: string, text: string, partBytes: number) {
  const bytes = Buffer.from(text, "latin1");
  let uploadId: string | null = null;
  for (let index = 0; index * partBytes < bytes.length; index++) {
    const data = bytes.subarray(index * partBytes, (index + 1) * partBytes).toString("base64");
    const r: Awaited<ReturnType<typeof api.call<"uploadImportFile">>> = await api.call("uploadImportFile", { body: { uploadId, kind, name, index, data } });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    uploadId = r.json.uploadId;
  }
  return uploadId!;
}

beforeAll(async () => {
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  // Two a second: the throttle spreads four invitations over two seconds.
  env = { PUBLIC_URL, MAIL_FROM: FROM, INVITATIONS_PER_MINUTE: "120", MAIL_RETRY_BASE_SECONDS: "1" };
  backend = await createBackend(t.db, { kind: "custodial", symbol: "FLO" });
  await t.db.query("UPDATE association SET currency_id = $1, name = 'Le Florain'", [backend.currency_id]);
  outbox = watchOutbox(t.db);
  one = await t.startServer({ env, mailer: smtpMailer(smtpUrl, FROM) });
  two = await t.startServer({ env, mailer: smtpMailer(smtpUrl, FROM) });
  const a = await seedMember(t.db, { canManageAssociation: true });
  const b = await seedMember(t.db, { canManageAssociation: true });
  owner = new Api(one.baseUrl, await memberToken(t.db, a.id));
  otherOwner = new Api(two.baseUrl, await memberToken(t.db, b.id));
});

describe("the console's import", () => {
  it("uploads a file in parts, previews it on another instance, imports it; another owner cannot use the upload; parts out of order are refused", async () => {
    const members = await upload(owner, "members", "adherents.csv", MEMBERS, 50);
    const preview = await new Api(two.baseUrl, owner.token).call("previewImport", { body: { members } });
    expect(preview.status).toBe(200);
    expect(preview.json.members).toMatchObject({ file: "adherents.csv", delimiter: ";", toImport: 4, total: "155.50 FLO" });
    expect(preview.json.problems).toEqual([]);

    const stolen = await otherOwner.call("runImport", { body: { members } });
    expect(stolen.status).toBe(404);
    expect(stolen.json.error?.message).toBe("This file is no longer here (uploaded files are kept a day): choose it again.");

    const first = await owner.call("uploadImportFile", { body: { uploadId: null, kind: "members", name: "x.csv", index: 0, data: "YQ==" } });
    const skipped = await owner.call("uploadImportFile", { body: { uploadId: first.json.uploadId, kind: "members", name: "x.csv", index: 2, data: "YQ==" } });
    expect(skipped.status).toBe(400);
    expect(skipped.json.error?.code).toBe(ErrorCode.validation);
    expect(skipped.json.error?.message).toBe(SM.importPartUnexpected);

    const run = await owner.call("runImport", { body: { members } });
    expect(run.status, JSON.stringify(run.json)).toBe(200);
    expect(run.json).toMatchObject({ imported: true, members: 4, movements: 3, total: "155.50" });
    const { rows: audit } = await t.db.query("SELECT member_id, details FROM audit_log WHERE action = 'import.run'");
    expect(audit).toEqual([{ member_id: expect.anything(), details: expect.objectContaining({ membersFile: "adherents.csv", members: 4, total: "155.50" }) }]);
  });

  it("invites the imported members at the throttle's pace, each once in their language, reports a refused address, and resumes on a new instance", async () => {
    const before = await owner.call("getInvitations");
    expect(before.json).toMatchObject({ notInvited: 4, waiting: 0, sent: 0 });
    const sent = await owner.call("sendInvitations");
    expect(sent.json).toMatchObject({ notInvited: 0, waiting: 4 });
    // Sending again invites nobody twice.
    expect((await otherOwner.call("sendInvitations")).json).toMatchObject({ notInvited: 0, waiting: expect.any(Number) });

    // The first one leaves; then every instance stops, and a new one takes up the rest.
    await expect.poll(() => inbox.length, { timeout: 10_000, interval: 50 }).toBeGreaterThanOrEqual(1);
    await one.close();
    await two.close();
    const three = await t.startServer({ env, mailer: smtpMailer(smtpUrl, FROM) });
    const api = new Api(three.baseUrl, owner.token);
    await expect
      .poll(async () => (await api.call("getInvitations")).json, { timeout: 20_000, interval: 200 })
      .toMatchObject({ sent: 3, failed: 1, waiting: 0 });
    // The instance left sends invitations one at a time, each to its answer before claiming the next: once a claim
    // of its comes out empty, no invitation is on its way any more (the closed instances finished theirs as they closed).
    await outbox.drained("invitations");
    expect(inbox.map((m) => m.to).sort()).toEqual(["ada.c@example.org", "paul.c@example.org", "zoe.c@example.org"]);
    // Two a minute... a second here: never all at once.
    const times = inbox.map((m) => m.at).sort((a, b) => a - b);
    expect(times[times.length - 1]! - times[0]!).toBeGreaterThanOrEqual(900);
    const failed = (await api.call("getInvitations")).json.failures;
    expect(failed).toEqual([{ name: "Nobody Here", email: "nobody.c@example.org", error: expect.stringContaining("550") }]);

    const zoe = inbox.find((m) => m.to === "zoe.c@example.org")!.raw;
    expect(zoe).toMatch(/Subject: =\?UTF-8\?Q\?Le_Florain_passe_=C3=A0_Mutua/);
    const paul = inbox.find((m) => m.to === "paul.c@example.org")!.raw.replace(/=\r\n/g, "");
    expect(paul).toContain("Subject: Le Florain moves to Mutua: choose your password");
    const token = /reset-password\?token=3D([\w-]+)|reset-password\?token=([\w-]+)/.exec(paul);
    const link = token![1] ?? token![2]!;

    // Paul chooses his password from the link: accepted, and his balance is there when he signs in.
    const set = await api.call("setNewPassword", { body: { token: link, password: "Longer-Pass-1" } });
    expect(set.status).toBe(200);
    expect((await api.call("getInvitations")).json).toMatchObject({ accepted: 1, sent: 2 });
    const login = await api.call("login", { body: { login: "paul.c@example.org", password: "Longer-Pass-1" } });
    expect(login.status).toBe(200);
    const accounts = await new Api(three.baseUrl, login.json.token).call("getAccounts");
    expect(accounts.json.map((a) => a.bal)).toContain("30.50");
  });
});

describe("a French association's own spreadsheet", () => {
  let server: TestServer;
  let owner: Api;
  beforeAll(async () => {
    server = await t.startServer({ env, mailer: smtpMailer(smtpUrl, FROM) });
    owner = new Api(server.baseUrl, await memberToken(t.db, (await seedMember(t.db, { canManageAssociation: true })).id));
  });
  afterAll(() => server.close());

  it("is read with the columns the owner matched, and the next file with the same columns is read so again; problems give the spreadsheet's row and the line's reference", async () => {
    // Three of its headers are a Cyclos users export's (in French), but it has no balance column of Cyclos's.
    const text = `Identifiant;Nom;Prénom;Courriel;Montant;Remarques
f1;Crémieux;Élodie;elodie.f@example.org;12,00;"Adhérente depuis 2019
(bénévole)"
f2;Lefèvre;François;pas-un-courriel;3,00;
`;
    const members = await upload(owner, "members", "adherents.csv", text, 1000);
    const unread = await owner.call("previewImport", { body: { members } });
    expect(unread.status).toBe(200);
    expect(unread.json.members).toMatchObject({ preset: null, headers: ["Identifiant", "Nom", "Prénom", "Courriel", "Montant", "Remarques"] });
    expect(unread.json.problems).toEqual([expect.objectContaining({ message: expect.stringMatching(/^no preset recognizes these columns/) })]);

    const mapping = { members: { externalId: "Identifiant", lastName: "Nom", firstName: "Prénom", email: "Courriel", balance: "Montant" } };
    const mapped = await owner.call("previewImport", { body: { members, mapping } });
    expect(mapped.json.members).toMatchObject({ preset: "custom", columns: { externalId: ["Identifiant"], balance: ["Montant"] } });
    // François's row is the spreadsheet's third, though the line break in Élodie's remark makes it the file's fourth line.
    expect(mapped.json.problems).toEqual([
      // Its code is the catalogs' msgid, for the console to say it in the owner's language.
      {
        file: "adherents.csv",
        line: 3,
        column: "Courriel",
        value: "pas-un-courriel",
        reference: "f2",
        message: "not an e-mail address",
        code: "not an e-mail address",
        params: {},
      },
    ]);
    const { rows } = await t.db.query("SELECT kind, mapping FROM import_mappings");
    expect(rows).toEqual([{ kind: "members", mapping: mapping.members }]);

    // The next file with these columns needs no matching.
    const again = await upload(owner, "members", "adherents-2.csv", text.replace("pas-un-courriel", "francois.f@example.org"), 1000);
    const remembered = await owner.call("previewImport", { body: { members: again } });
    expect(remembered.json.members).toMatchObject({ preset: "custom", toImport: 2 });
    expect(remembered.json.problems).toEqual([]);
    // A mapping that is no mapping is refused.
    const wrong = await owner.call("previewImport", { body: { members, mapping: { members: { nickname: "Nom" } } } as never });
    expect(wrong.status).toBe(400);
    await t.db.query("DELETE FROM import_mappings");
  });
});

describe("the console's import and the accounts already here", () => {
  let server: TestServer;
  let api: Api;
  let ownerId: bigint;

  beforeAll(async () => {
    server = await t.startServer({ env, mailer: smtpMailer(smtpUrl, FROM) });
    const o = await seedMember(t.db, {
      canManageAssociation: true,
      canValidateAccounts: true,
      email: "olga.c@example.org",
      firstName: "Olga",
      lastName: "Owner",
    });
    ownerId = o.id;
    api = new Api(server.baseUrl, await memberToken(t.db, o.id));
  });
  afterAll(async () => {
    await server.close();
    expect(await importInvariantViolations(t.db)).toEqual([]);
  });

  it("holds what it brings a member whose address was never proven: the one who signed up with it sees nothing; the invitation's link opens it to whoever reads that mailbox", async () => {
    // Somebody signed up with the address of a member of the old system, and never proved it.
    const stranger = await seedMember(t.db, { email: "vera.c@example.org", firstName: "Someone", lastName: "Else" });
    const strangerApi = new Api(server.baseUrl, await memberToken(t.db, stranger.id));
    const members = await upload(
      api,
      "members",
      "adherents.csv",
      "external_id,first_name,last_name,email,balance\nh1,Vera,Held,vera.c@example.org,64.00\n",
      1000,
    );
    const preview = await api.call("previewImport", { body: { members } });
    expect(preview.status, JSON.stringify(preview.json)).toBe(200);
    expect(preview.json.members.existing).toEqual([
      { line: 2, email: "vera.c@example.org", name: "Someone Else", createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), emailVerified: false },
    ]);
    const run = await api.call("runImport", { body: { members } });
    expect(run.json).toMatchObject({ imported: true, members: 0, linked: 1, held: 1, total: "64.00" });

    // The stranger: a pending wallet, no balance, and neither its balance nor its history to read.
    const accounts = (await strangerApi.call("getAccounts")).json;
    const wallet = accounts.find((a) => a.backendId === backend.id)!;
    expect(wallet).toMatchObject({ status: "pending", active: false, bal: null });
    expect((await strangerApi.call("getBalance", { params: { walletId: wallet.id } })).status).toBe(404);
    expect((await strangerApi.call("getTransactions", { params: { walletId: wallet.id }, query: {} })).status).toBe(404);
    // Account administrators do not see it among the wallets to approve.
    const staging = await api.call("getStagingUserAccounts");
    expect(staging.json.map((s) => s.walletId)).not.toContain(wallet.id);

    // The invitation goes to the address; its link is opened by whoever reads that mailbox.
    expect((await api.call("sendInvitations")).status).toBe(200);
    await expect.poll(() => inbox.some((m) => m.to === "vera.c@example.org"), { timeout: 20_000, interval: 50 }).toBe(true);
    const raw = inbox.find((m) => m.to === "vera.c@example.org")!.raw.replace(/=\r\n/g, "");
    expect(raw).toContain("your balance is waiting");
    const token = /reset-password\?token=3D([\w-]+)|reset-password\?token=([\w-]+)/.exec(raw);
    const set = await api.call("setNewPassword", { body: { token: token![1] ?? token![2]!, password: "Vera-Owns-It-1" } });
    expect(set.status).toBe(200);
    // The stranger is signed out; the address's owner signs in to the balance.
    expect((await strangerApi.call("getAccounts")).status).toBe(401);
    const login = await api.call("login", { body: { login: "vera.c@example.org", password: "Vera-Owns-It-1" } });
    const mine = await new Api(server.baseUrl, login.json.token).call("getAccounts");
    expect(mine.json.find((a) => a.id === wallet.id)).toMatchObject({ status: "active", bal: "64.00" });
  });

  it("refuses the owner's own line in the preview and the import, naming it", async () => {
    await t.db.query("UPDATE members SET email_verified_at = now() WHERE id = $1", [ownerId]);
    const members = await upload(
      api,
      "members",
      "moi.csv",
      "external_id,first_name,last_name,email,balance\nself1,Olga,Owner,olga.c@example.org,1000.00\n",
      1000,
    );
    const problem = {
      file: "moi.csv",
      line: 2,
      column: "email",
      value: "olga.c@example.org",
      reference: "self1",
      message: "this is your own account (Olga Owner): an owner does not import money into their own account; another owner can import this line",
      code: "this is your own account (Olga Owner): an owner does not import money into their own account; another owner can import this line",
      params: {},
    };
    expect((await api.call("previewImport", { body: { members } })).json.problems).toEqual([problem]);
    const run = await api.call("runImport", { body: { members } });
    expect(run.json).toMatchObject({ imported: false, preview: { problems: [problem] } });
    const { rows } = await t.db.query("SELECT 1 FROM wallets WHERE member_id = $1", [ownerId]);
    expect(rows).toEqual([]);
  });

  it("refuses a second preview or import while one runs anywhere (the turn is in PostgreSQL), with a 409", async () => {
    const members = await upload(api, "members", "turn.csv", "external_id,first_name,last_name,email,balance\nturn1,Tina,Turn,tina.c@example.org,1.00\n", 1000);
    // Another instance's import holds the association's turn.
    const other = await t.db.connect();
    try {
      await other.query("SELECT pg_advisory_lock($1)", [0x6d_69_6d_70]);
      for (const name of ["previewImport", "runImport"] as const) {
        const r = await api.call(name, { body: { members } });
        expect(r.status).toBe(409);
        expect(r.json.error?.message).toBe(SM.importRunning);
      }
    } finally {
      await other.query("SELECT pg_advisory_unlock($1)", [0x6d_69_6d_70]);
      other.release();
    }
    expect((await api.call("previewImport", { body: { members } })).status).toBe(200);
  });

  it("refuses a members file past 20 MB as it is uploaded, and keeps at most 4 uploads per owner", async () => {
    let uploadId: string | null = null;
    let last!: Awaited<ReturnType<typeof api.call<"uploadImportFile">>>;
    for (let index = 0; index <= 20; index++) {
      last = await api.call("uploadImportFile", { body: { uploadId, kind: "members", name: "big.csv", index, data: "YQ==" } });
      if (index < 20) uploadId = last.json.uploadId;
    }
    expect(last.status).toBe(400);
    expect(last.json.error?.message).toBe(SM.importMembersFileTooLarge);

    const opened: string[] = [];
    for (let i = 0; i < 6; i++) opened.push(await upload(api, "members", `m${i}.csv`, "external_id,first_name,last_name,email,balance\n", 1000));
    const { rows } = await t.db.query<{ id: string }>("SELECT id FROM import_uploads WHERE by_member = $1 ORDER BY created_at, id", [ownerId]);
    expect(rows.map((r) => r.id).sort()).toEqual(opened.slice(2).sort());
    const gone = await api.call("previewImport", { body: { members: opened[0]! } });
    expect(gone.status).toBe(404);
    expect(gone.json.error?.message).toBe(SM.importUploadGone);
  });
});
