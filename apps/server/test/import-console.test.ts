import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorCode, SM } from "@mutua/domain";
import { smtpMailer } from "../src/services/notifications/mail";
import type { BackendRow } from "../src/services/wallets/wallets";
import { Api, createBackend, memberToken, seedMember, type TestServer } from "./helpers";
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
    await new Promise((r) => setTimeout(r, 1000));
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
