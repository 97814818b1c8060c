import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newPage } from "./support/browser";
import { startMailbox, type Mailbox } from "./support/mailbox";
import { routes } from "@mutua/domain";
import { generateImport } from "../apps/server/test/import-generator";
import { sql, startInstance } from "./support/server";
import { signedIn, useSuite } from "./support/suite";
import { french, signInWords } from "./pages/app";
import { openMembersList } from "./pages/admin";
import { DEMO_PASSWORD, signIn } from "./pages/members";
import { choosePasswordFromLink } from "./pages/association";
import { circulation, openFiguresFromMenu } from "./pages/board";
import { signInToDashboard } from "./pages/members";
import { alreadyHere, checkFiles, chooseFile, fileField, importChecked, invitationsAccepted, inviteImported, openImport } from "./pages/import";

/**
 * Moving in, as an owner does it (features/import): Ada uploads the members and the history a
 * French spreadsheet saved (Windows-1252, semicolons, decimal commas, dates day first: a Cyclos
 * export opened and saved again in Excel), reads the preview, imports; the board's circulation grows
 * by the file's sum. She invites the imported members; François gets his invitation over SMTP,
 * chooses his password, and sees his balance and his history's last movement on its original date.
 * An account opened here with an address of the file, never proven, is shown as such and gets its
 * balance only through the invitation sent to that address.
 */
let mailbox: Mailbox;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-import-e2e-"));
const SHOTS = "/tmp/import-shots";
// Before the suite's own hooks: the server is started with the mailbox's address.
beforeAll(async () => {
  mailbox = await startMailbox();
  fs.mkdirSync(SHOTS, { recursive: true });
}, 30_000);
const suite = useSuite(() => ({ SMTP_URL: mailbox.url, INVITATIONS_PER_MINUTE: "600" }));
afterAll(async () => {
  await mailbox?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A file as a French Excel saves "CSV (séparateur : point-virgule)": Windows-1252, CRLF. */
const excel = (name: string, lines: string[]) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, Buffer.from(`${lines.join("\r\n")}\r\n`, "latin1"));
  return file;
};

const MEMBERS = excel("utilisateurs.csv", [
  "Nom d'utilisateur;Nom;Courriel;Téléphone mobile;Solde",
  "ecremieux;Élodie Crémieux;elodie@florain-import.example;06 12 34 56 78;1 222,75",
  "flefevre;François Lefèvre;francois@florain-import.example;;87,25",
  "pguerin;Paulette Guérin;paulette@florain-import.example;;0,00",
  // Somebody signed up here with Yvette's address two days ago and never proved it.
  "ymartin;Yvette Martin;yvette@florain-import.example;;12,00",
]);
const HISTORY = excel("virements.csv", [
  "Date;De;À;Montant;Déscription;Numéro de transaction",
  "15/03/2024;;ecremieux;1 300,00;Change;T1",
  "16/03/2024 14:30;ecremieux;flefevre;65,50;Marché de Noël;T2",
  "01/04/2024;;flefevre;10,00;Change;T3",
  "02/05/2024;ecremieux;flefevre;11,75;Panier de légumes;T4",
  "03/05/2024;;ymartin;12,00;Change;T5",
]);
const FILE_SUM = 132_200n;

/** The board's circulation of the demo currency, as the figures screen shows it. */
const demoCirculation = (page: Page) => circulation(page, "Demo Lokal");

describe("moving in", () => {
  it("Ada imports a French spreadsheet's members and history; the circulation grows by the file's sum; François accepts his invitation and sees his money", async () => {
    const board = await signedIn(suite, "board@example.com");
    await openFiguresFromMenu(board.page, "Bea Board");
    const before = await demoCirculation(board.page);

    const ada = await signedIn(suite, "admin@example.com", undefined, { phone: true });
    const { page } = ada;
    // On a phone the account menu is behind the navigation's; the import is reached from the settings.
    await openImport(page, "Ada Admin", { phone: true });

    await sql(
      suite.server,
      `INSERT INTO members (email, first_name, last_name, password_hash, search_text, name_key, created_at)
       VALUES ('yvette@florain-import.example', 'Yvette', 'Usurpée', 'no password', 'yvette usurpee', 'yvette usurpee', now() - interval '2 days')`,
    );
    // The file fields speak the app's words, not the browser's ("Choose File", "No file chosen").
    const membersField = fileField(page, "Members file");
    await membersField.getByText("Choose a file").waitFor();
    await membersField.getByText("No file chosen").waitFor();
    await checkFiles(page, MEMBERS, HISTORY);
    await page.getByText(/3 members to import/).waitFor();
    await page.getByText("Élodie Crémieux").first().waitFor();
    const yvette = alreadyHere(page, "Yvette Usurpée");
    await yvette.getByText("address not verified: the balance waits for the invitation").waitFor();
    expect(await yvette.textContent()).toMatch(/member since /);
    await page
      .getByText("Téléphone mobile")
      .first()
      .waitFor({ state: "detached" })
      .catch(() => undefined);
    await page.screenshot({ path: `${SHOTS}/preview-phone.png`, fullPage: true });

    await importChecked(page);
    await page.getByText(/Imported 3 members/).waitFor({ timeout: 30_000 });
    await page.getByText("1 of them never verified their address: their balance waits until they open their invitation.").waitFor();
    await page.screenshot({ path: `${SHOTS}/imported-phone.png`, fullPage: true });

    // The board's circulation: exactly the file's sum more.
    expect((await demoCirculation(board.page)) - before).toBe(FILE_SUM);

    // The invitations leave; Paulette's, Élodie's and François's, and the one to Yvette's address.
    await inviteImported(page, 4);
    const mail = await mailbox.next("francois@florain-import.example", 20_000);
    expect(mail.subject).toContain("choose your password");
    const link = /(http:\/\/\S+\/reset-password\?token=[\w-]+)/.exec(mail.text ?? "")?.[1];
    expect(link).toBeTruthy();
    await expect
      .poll(async () => (await sql(suite.server, "SELECT count(*)::int AS n FROM member_invitations WHERE sent_at IS NOT NULL"))[0], { timeout: 20_000 })
      .toEqual({ n: 4 });
    expect((await mailbox.next("yvette@florain-import.example", 20_000)).subject).toContain("your balance is waiting");
    await page.reload();
    await page.getByRole("heading", { name: "Invitations" }).waitFor();
    await page.screenshot({ path: `${SHOTS}/invitations-phone.png`, fullPage: true });

    // François chooses his password from the link, signs in, and finds his money and his past.
    const francois = await newPage(suite.browser, { phone: true });
    await choosePasswordFromLink(francois.page, link!, "Florain-2024!");
    await signInToDashboard(francois.page, suite.server.url, "francois@florain-import.example", "Florain-2024!");
    await francois.page.getByText("87.25 DL").first().waitFor();
    const last = francois.page.locator(".transactions .tx").first();
    await last.getByText("Panier de légumes").waitFor();
    // On its original date, in the member's language.
    const when = last.locator("time");
    expect(await when.getAttribute("datetime")).toMatch(/^2024-05-02T/);
    expect(await when.textContent()).toMatch(/2024/);
    await francois.page.screenshot({ path: `${SHOTS}/francois-dashboard-phone.png`, fullPage: true });
    expect(francois.errors).toEqual([]);
    expect(ada.errors).toEqual([]);

    // Ada's console counts him in.
    await page.reload();
    await expect.poll(() => invitationsAccepted(page), { timeout: 10_000 }).toBe("1");
  });
});

/**
 * A French association's own spreadsheet, which no known format reads: three of its members
 * file's headers are a Cyclos export's in French, but it has no balance column of Cyclos's.
 */
const OWN_MEMBERS = (email: string) =>
  excel(`adherents-${email.split("@")[0]}.csv`, [
    "Identifiant;Prénom;Nom;Courriel;Montant;Remarques",
    'rb1;Rose;Bonnet;rose@asso-import.example;20,00;"Adhérente depuis 2019',
    '(bénévole au marché)"',
    `rb2;Hugo;Perrin;${email};5,00;`,
  ]);
const OWN_HISTORY = excel("operations.csv", [
  "Jour;Payeur;Bénéficiaire;Somme;Libellé;N° opération",
  "04/01/2024;;rb1;30,00;Change;OP-17",
  "05/01/2024;rb1;rb2;10,00;Confitures;OP-18",
  "06/01/2024;rb2;;5,00;Reconversion;OP-19",
]);

describe("moving in with a spreadsheet of the association's own", () => {
  it("Ada, in French on a wide screen, imports from the members' screen: she matches the columns once, sees the rows and references of the problems, the history's reading and sums; the next file needs no matching", async () => {
    const ada = await newPage(suite.browser, { locale: "fr-FR", viewport: { width: 1280, height: 800 } });
    const { page } = ada;
    const t = french;
    await signIn(page, suite.server.url, "admin@example.com", DEMO_PASSWORD, signInWords(t));
    await page.waitForURL((u) => u.pathname.startsWith("/admin") || u.pathname === "/dashboard");
    // Where an administrator looks for members.
    await openMembersList(page, t);
    await page.getByRole("link", { name: t("Import members") }).click();
    await page.getByRole("heading", { level: 1, name: t("Import members") }).waitFor();

    await chooseFile(page, t("Members file"), OWN_MEMBERS("pas-un-courriel"));
    await chooseFile(page, t("History file (optional)"), OWN_HISTORY);
    await page.getByRole("button", { name: t("Check the files") }).click();
    const matching = page.getByRole("region", { name: t("Match the columns") });
    await matching.waitFor();
    // A select per field of Mutua's, listing the file's columns.
    const select = (legend: string, field: string) => matching.getByRole("group", { name: t(legend) }).getByLabel(t(field), { exact: true });
    expect(await select("Members file", "Member number in the old system").locator("option").allTextContents()).toEqual([
      t("Not in the file"),
      "Identifiant",
      "Prénom",
      "Nom",
      "Courriel",
      "Montant",
      "Remarques",
    ]);
    for (const [field, column] of [
      ["Member number in the old system", "Identifiant"],
      ["First name", "Prénom"],
      ["Last name", "Nom"],
      ["Email", "Courriel"],
      ["Closing balance", "Montant"],
    ] as const)
      await select("Members file", field).selectOption(column);
    for (const [field, column] of [
      ["Date", "Jour"],
      ["Payer's member number", "Payeur"],
      ["Payee's member number", "Bénéficiaire"],
      ["Amount", "Somme"],
      ["Memo", "Libellé"],
      ["Reference in the old system", "N° opération"],
    ] as const)
      await select("History file", field).selectOption(column);
    // The preview follows: Hugo's bad address is on the spreadsheet's row 3 (Rose's remark takes two lines of the file), with his number, said in French.
    const problems = page.getByRole("alert");
    await problems
      .getByText(
        new RegExp(
          `adherents-pas-un-courriel\\.csv, ${t("row {row} ({reference})", { row: 3, reference: "rb2" }).replace(/[()]/g, "\\$&")}, ${t("column {column}", { column: "Courriel" })}.*: ${t("not an e-mail address")}$`,
        ),
      )
      .waitFor();
    // A history line naming him is refused too, with its own reference in the old system.
    await problems
      .getByText(new RegExp(`operations\\.csv, ${t("row {row} ({reference})", { row: 4, reference: "OP-19" }).replace(/[()]/g, "\\$&")}`))
      .waitFor();
    const preview = page.getByRole("region", { name: t("What will be imported") });
    await page.screenshot({ path: `${SHOTS}/matching-wide-fr.png`, fullPage: true });

    // The corrected file: its columns are read as she matched them, without matching them again.
    await chooseFile(page, t("Members file"), OWN_MEMBERS("hugo@asso-import.example"));
    await page.getByRole("button", { name: t("Check the files") }).click();
    await preview.getByText(t("{count} members to import", { count: 2 })).waitFor();
    expect(await select("Members file", "Closing balance").inputValue()).toBe("Montant");
    expect(await problems.count()).toBe(0);
    // How the history was read, and the money that came into the system and left it.
    const historyFile = preview.locator("dd").filter({ hasText: "operations.csv" });
    await historyFile.getByText(t("Read as {encoding}, values separated by {delimiter}", { encoding: "WINDOWS-1252", delimiter: t("semicolons") })).waitFor();
    const fact = (label: string) => preview.locator("dt", { hasText: t(label) }).locator("xpath=following-sibling::dd[1]");
    expect(await fact("Money that came into the system").textContent()).toMatch(/^30,00\sDL$/);
    expect(await fact("Money that left the system").textContent()).toMatch(/^5,00\sDL$/);
    await page.getByRole("button", { name: t("Import"), exact: true }).click();
    await page
      .getByRole("dialog")
      .getByRole("button", { name: t("Import"), exact: true })
      .click();
    await page
      .getByText(t("Imported {members} and {movements}.", { members: t("{count} members", { count: 2 }), movements: t("{count} movements", { count: 4 }) }))
      .waitFor({ timeout: 30_000 });
    expect(ada.errors).toEqual([]);
  });
});

describe("a server killed during an import", () => {
  it("leaves the database as it was (kill -9 while the console's import runs), and the same upload imports whole on another instance", async () => {
    const gen = path.join(dir, "generated");
    fs.mkdirSync(gen);
    const files = await generateImport(gen, 2000, 40_000, 11);
    const second = await startInstance(suite.server, { SMTP_URL: mailbox.url });
    const call = async (base: string, name: "login" | "uploadImportFile" | "runImport", token: string | null, body: unknown) => {
      const r = await fetch(`${base}${routes[name].path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      return { status: r.status, json: (await r.json()) as Record<string, unknown> };
    };
    const { token } = (await call(second.url, "login", null, { login: "admin@example.com", password: "Demo1234!" })).json as { token: string };
    const upload = async (kind: "members" | "history", file: string) => {
      const bytes = fs.readFileSync(file);
      let uploadId: string | null = null;
      for (let index = 0; index * 1024 * 1024 < bytes.length; index++) {
        const data = bytes.subarray(index * 1024 * 1024, (index + 1) * 1024 * 1024).toString("base64");
        const r = await call(second.url, "uploadImportFile", token, { uploadId, kind, name: path.basename(file), index, data });
        expect(r.status).toBe(200);
        uploadId = r.json.uploadId as string;
      }
      return uploadId!;
    };
    const body = { members: await upload("members", files.members), history: await upload("history", files.history) };
    const count = async () =>
      (
        await sql(
          suite.server,
          "SELECT (SELECT count(*) FROM members)::int AS members, (SELECT count(*) FROM movements)::int AS movements, (SELECT count(*) FROM imports)::int AS imports",
        )
      )[0] as { members: number; movements: number; imports: number };
    const before = await count();
    // Whether a connection holds the import's turn: the server's advisory lock ("mimp", 0x6d696d70,
    // apps/server/src/services/import/import-lock.ts), which a killed instance's connection keeps
    // until the database drops it.
    const importTurnTaken = async () =>
      (
        (await sql(
          suite.server,
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = $1 AND objsubid = 1 AND granted",
          [0x6d_69_6d_70],
        )) as { n: number }[]
      )[0]!.n > 0;

    // The import starts on the second instance; once it holds the import's lock and is loading the history, the instance is killed.
    const answer = call(second.url, "runImport", token, body).catch((e: unknown) => e);
    await expect
      .poll(async () => (await sql(suite.server, "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'INSERT INTO import_lines%'"))[0], {
        timeout: 30_000,
        interval: 20,
      })
      .toEqual({ n: 1 });
    second.kill();
    expect(await answer).toBeInstanceOf(Error);
    expect(await count()).toEqual(before);

    // The same upload, imported from the first instance: refused while the dead one's connection
    // still holds the import's turn, then all of it, once it is gone.
    let again = await call(suite.server.url, "runImport", token, body);
    if (again.status === 409) {
      expect(again.json).toMatchObject({ error: { message: expect.stringMatching(/^An import is already running/) } });
      await expect.poll(importTurnTaken, { timeout: 60_000 }).toBe(false);
      again = await call(suite.server.url, "runImport", token, body);
    }
    expect(again.status, JSON.stringify(again.json)).toBe(200);
    expect(again.json).toMatchObject({ imported: true, members: 2000 });
    const after = await count();
    expect(after.members).toBe(before.members + 2000);
    expect(after.imports).toBe(before.imports + 1);
    second.cleanup();
  }, 180_000);
});
