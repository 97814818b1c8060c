import fs from "node:fs";
import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { readHistoryFile, type HistoryRow } from "../src/services/import/history-file";
import { readMembersFile } from "../src/services/import/members-file";
import { loadMapping } from "../src/services/import/presets";
import { allRows, fixture, membersOf, tmpFile, scratchFolder, tmpPath } from "./import-file-helpers";

/**
 * Reading the files associations come to Mutua with (a French spreadsheet saved by Excel, Cyclos
 * and Odoo exports, Mutua's own format) into checked rows, with every problem located: the
 * members files and the history files (decoding, CSV, values and mappings: import-files.test.ts).
 * Files only: no database.
 */

scratchFolder();

describe("members files", () => {
  it("reads a French spreadsheet saved by Excel: Windows-1252, ';', decimal comma, a quoted ';' and line break", async () => {
    const mapping = await loadMapping(fixture("mapping-fr.json"));
    const file = await membersOf(fixture("adherents-1252.csv"), { mapping: mapping.members });
    expect(file).toMatchObject({
      preset: "custom",
      encoding: "windows-1252",
      delimiter: ";",
      decimalSeparator: ",",
      unknownColumns: ["Remarques"],
      // Read past, never imported: an owner grants rights from the members' pages.
      ignoredRights: ["Droits"],
      problems: [],
    });
    // The mapping says "N° adhérent"; the file says "N° ADHÉRENT".
    expect(file.columns.externalId).toEqual(["N° ADHÉRENT"]);
    expect(file.rows).toEqual([
      {
        line: 2,
        externalId: "A001",
        firstName: "Élodie",
        lastName: "Crémieux",
        email: "elodie.cremieux@example.org",
        phone: "06 12 34 56 78",
        language: "fr-FR",
        balance: 123450n,
        business: false,
        profile: null,
      },
      // The file's line 3 is the end of A001's remark, in the same row of the spreadsheet.
      {
        line: 3,
        externalId: "A002",
        firstName: "François",
        lastName: "Lefèvre",
        email: "francois@example.org",
        phone: null,
        language: "fr-FR",
        balance: -1250n,
        business: false,
        profile: null,
      },
      // "1.234" in a ';' file: the decimal separator is the comma, so it is 1234.
      {
        line: 4,
        externalId: "B001",
        firstName: "Boulangerie",
        lastName: "Œuvre",
        email: "contact@boulangerie.example",
        phone: "+33 4 00 00 00 00",
        language: null,
        balance: 123400n,
        business: true,
        // A shop's profile from what the file holds: its name the member's, and never the member's own phone.
        profile: { name: "Boulangerie Œuvre", categoryId: null, description: "", address: "", phone: null, website: null, location: null },
      },
    ]);
  });

  it("reads Mutua's format in UTF-8 with a byte-order mark and ',', and its tab-separated variant", async () => {
    const csv = await membersOf(fixture("members-mutua-bom.csv"));
    expect(csv).toMatchObject({ preset: "mutua", encoding: "utf-8", delimiter: ",", decimalSeparator: ".", unknownColumns: [], problems: [] });
    expect(csv.headers[0]).toBe("external_id");
    expect(csv.ignoredRights).toEqual(["rights"]);
    expect(csv.rows.map((r) => [r.line, r.externalId, r.firstName, r.lastName, r.email, r.language, r.balance, r.business])).toEqual([
      [2, "m1", "Zoë", "Ångström", "zoe@example.org", "en-US", 123450n, false],
      [3, "m2", 'Jean "Jeannot"', "Dupont", "jean@example.org", "fr-FR", -4000n, false],
      [4, "m3", "Café", "Le Zinc, SARL", "zinc@example.org", null, 50n, true],
    ]);
    expect(csv.rows.every((r) => !("rights" in r))).toBe(true);
    const tsv = await membersOf(fixture("members-mutua.tsv"));
    expect(tsv).toMatchObject({ preset: "mutua", delimiter: "\t", decimalSeparator: null, problems: [] });
    expect(tsv.rows.map((r) => [r.externalId, r.balance, r.business])).toEqual([
      ["m1", 123450n, false],
      ["m2", -4025n, true],
    ]);
  });

  it("recognizes a Cyclos 4 users export and splits its full names", async () => {
    const file = await membersOf(fixture("cyclos4-users.csv"));
    expect(file).toMatchObject({ preset: "cyclos4-users", encoding: null, unknownColumns: ["Group"], problems: [] });
    expect(file.columns).toMatchObject({ externalId: ["Login name"], name: ["Name"], email: ["E-mail"], phone: ["Mobile phone"], balance: ["Balance"] });
    expect(file.rows.map((r) => [r.externalId, r.firstName, r.lastName, r.phone, r.balance])).toEqual([
      ["jdupont", "Jean", "DUPONT", "+33 6 11 22 33 44", 15000n],
      ["amlefebvre", "Anne-Marie", "LEFEBVRE", null, -2050n],
      ["mdlt", "Marie", "de La Tour", null, 0n],
    ]);
  });

  it("recognizes an Odoo contacts export, with labels or import-compatible technical names", async () => {
    const labels = await membersOf(fixture("odoo-contacts.csv"));
    expect(labels).toMatchObject({ preset: "odoo-contacts", problems: [], unknownColumns: [] });
    expect(labels.rows.map((r) => [r.externalId, r.firstName, r.lastName, r.phone, r.language, r.business, r.balance])).toEqual([
      ["__export__.res_partner_12_4f1a2b3c", "Anne", "Martin", "+33 6 00 00 00 02", "fr-FR", false, 1000n],
      ["__export__.res_partner_13_9e8d7c6b", "Bob", "Lee", "+33 1 00 00 00 03", "en-US", false, 0n],
      // A company has one name, kept whole.
      ["__export__.res_partner_14_aa11bb22", "Épicerie Sol", "", null, "fr-FR", true, 25050n],
    ]);
    const technical = await membersOf(tmpFile("id,name,email,phone,lang,is_company,balance\nbase.res_partner_7,Ann LEE,ann@example.org,,fr_FR,True,5\n"));
    expect(technical).toMatchObject({ preset: "odoo-contacts", problems: [] });
    expect(technical.rows[0]).toMatchObject({
      externalId: "base.res_partner_7",
      firstName: "Ann LEE",
      lastName: "",
      language: "fr-FR",
      business: true,
      balance: 500n,
    });
  });

  it("names file, line, column and value of every problem, and reads on", async () => {
    const file = tmpFile(
      [
        "external_id;first_name;last_name;email;balance;language;rights",
        "m1;Ann;Lee;ann@example.org;10,00;fr;",
        "m2;Bob;Ray;not-an-email;5;;",
        "m3;Cat;Poe;cat@example.org;12,345,6;;",
        "m1;Dan;Ode;dan@example.org;1;;",
        "m5;Eve;Ash;ANN@Example.org;1;;",
        "m6;;Fox;fox@example.org;1;;",
        "m7;Gus;Hay;gus@example.org;;de;root",
        "m8;Hal;Ito;hal@example.org;1;;;surplus",
        "m9;Ida;Jo;ida@example.org;2;;",
      ].join("\n"),
    );
    const result = await membersOf(file);
    expect(result.problems).toEqual([
      { file, line: 3, column: "email", value: "not-an-email", reference: "m2", message: "not an e-mail address" },
      { file, line: 4, column: "balance", value: "12,345,6", reference: "m3", message: "thousands must be grouped by three digits" },
      {
        file,
        line: 5,
        column: "external_id",
        value: "m1",
        reference: "m1",
        message: "external id already on row 2",
        code: "external id already on row {row}",
        params: { row: 2 },
      },
      {
        file,
        line: 6,
        column: "email",
        value: "ann@example.org",
        reference: "m5",
        message: "e-mail already on row 2",
        code: "e-mail already on row {row}",
        params: { row: 2 },
      },
      {
        file,
        line: 7,
        column: "first_name",
        value: "",
        reference: "m6",
        message: "empty; the first name is required",
        code: "empty; the {field} is required",
        params: { field: "first name" },
      },
      { file, line: 8, column: "language", value: "de", reference: "m7", message: expect.stringMatching(/does not speak/) },
      {
        file,
        line: 8,
        column: "balance",
        value: "",
        reference: "m7",
        message: "empty; the balance is required",
        code: "empty; the {field} is required",
        params: { field: "balance" },
      },
      {
        file,
        line: 9,
        column: null,
        value: "surplus",
        reference: "m8",
        message: expect.stringMatching(/8 values on a line of a file with 7 columns/),
        code: expect.stringMatching(/^\{count\} values/),
        params: { count: 8, columns: 7 },
      },
    ]);
    expect(result.rows.map((r) => [r.line, r.externalId])).toEqual([
      [2, "m1"],
      [10, "m9"],
    ]);
  });

  it("refuses a phone the profile would refuse, naming its line and column; keeps the others as the profile does", async () => {
    const file = tmpFile(
      [
        "external_id,first_name,last_name,email,phone,balance",
        "p1,Ann,Lee,ann.p@example.org,+33 6 12 34 56 78,1",
        'p2,Bob,Ray,bob.p@example.org,"06 12 34\n56 78",1',
        "p3,Cat,Poe,cat.p@example.org,06 12 34 56 78\u202E,1",
        'p4,Dan,Ode,dan.p@example.org,<b onclick="x()">0612345678</b>,1',
        `p5,Eve,Ash,eve.p@example.org,${"9".repeat(20_000)},1`,
      ].join("\n"),
    );
    const result = await membersOf(file);
    expect(result.problems).toEqual([
      {
        file,
        line: 4,
        column: "phone",
        value: "06 12 34 56 78\u202E",
        reference: "p3",
        message: "A phone number may contain only digits, spaces and the signs + - . ( )",
      },
      {
        file,
        line: 5,
        column: "phone",
        value: '<b onclick="x()">0612345678</b>',
        reference: "p4",
        message: "A phone number may contain only digits, spaces and the signs + - . ( )",
      },
      { file, line: 6, column: "phone", value: "9".repeat(20_000), reference: "p5", message: "A phone number has 6 to 20 digits." },
    ]);
    expect(result.rows.map((r) => [r.externalId, r.phone])).toEqual([
      ["p1", "+33 6 12 34 56 78"],
      ["p2", "06 12 34 56 78"],
    ]);
  });

  it("streams a large members file without holding its members, and stops past 20 MB with the problem", async () => {
    const write = async (file: string, count: number) => {
      const out = fs.createWriteStream(file);
      out.write("external_id,first_name,last_name,email,phone,language,balance,business\n");
      for (let i = 0; i < count; i++) {
        const line = `member-${i},Firstname${i},Lastname-of-member-${i},member.${i}@example.org,+33 6 12 34 ${String(i % 100).padStart(2, "0")} 78,fr,${i % 1000}.50,no\n`;
        if (!out.write(line)) await new Promise((resolve) => out.once("drain", resolve));
      }
      await new Promise((resolve) => out.end(resolve));
    };
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;

    // Some 15 MB: within the limit, read whole, with nothing kept but the ids and e-mails seen.
    const N = 120_000;
    const big = tmpPath("big-members.csv");
    await write(big, N);
    gc();
    const before = process.memoryUsage().heapUsed;
    let peak = 0;
    let rows = 0;
    const file = await readMembersFile(big);
    for await (const r of file.rows) {
      rows++;
      if (rows % 20_000 === 0) {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - before);
      }
      expect(r.externalId).toBe(`member-${rows - 1}`);
    }
    expect(file.problems).toEqual([]);
    expect(rows).toBe(N);
    // What is kept: 120,000 ids and e-mails; holding the members themselves takes some 60 MB.
    expect(peak).toBeLessThan(24 * 1024 * 1024);

    // Past 20 MB the reading stops, with the problem, whatever comes after.
    const huge = tmpPath("huge-members.csv");
    await write(huge, 200_000);
    expect(fs.statSync(huge).size).toBeGreaterThan(20 * 1024 * 1024);
    const result = await membersOf(huge);
    expect(result.problems).toEqual([
      {
        file: huge,
        line: null,
        column: null,
        value: null,
        reference: null,
        message: expect.stringMatching(/^the file is larger than 20 MB, the most a file of this kind can be/),
      },
    ]);
    expect(result.rows.length).toBeLessThan(200_000);
  }, 60_000);

  it("names the missing column of the preset named, and reads no rows", async () => {
    const mutua = await membersOf(tmpFile("external_id,first_name,last_name,email\nm1,A,B,a@example.org\n"), { preset: "mutua" });
    expect(mutua.problems).toEqual([
      {
        file: expect.any(String),
        line: 1,
        column: "balance",
        value: null,
        reference: null,
        message: 'missing column: expected "balance" (preset mutua)',
        code: "missing column: expected {expected} (preset {preset})",
        params: { expected: '"balance"', preset: "mutua" },
      },
    ]);
    expect(mutua.rows).toEqual([]);
    const cyclos = await membersOf(tmpFile('"Name","Login name","E-mail"\n"A B","ab","a@example.org"\n'), { preset: "cyclos4-users" });
    expect(cyclos.problems).toEqual([
      {
        file: expect.any(String),
        line: 1,
        column: "Balance",
        value: null,
        reference: null,
        message: 'missing column: expected "Balance" or "Account balance" or "Solde" (preset cyclos4-users)',
        code: "missing column: expected {expected} (preset {preset})",
        params: { expected: '"Balance" or "Account balance" or "Solde"', preset: "cyclos4-users" },
      },
    ]);
    const names = await membersOf(tmpFile("external_id,first_name,email,balance\nm1,A,a@example.org,1\n"), { preset: "mutua" });
    expect(names.problems[0]?.message).toBe('missing column: expected "first_name" and "last_name", or "name" (preset mutua)');
  });

  it("says when no preset fits, and lists the columns a mapping leaves unread", async () => {
    const none = await membersOf(tmpFile("Who;Mail;Money\nA;a@example.org;1\n"));
    expect(none.preset).toBeNull();
    expect(none.problems).toEqual([
      {
        file: expect.any(String),
        line: 1,
        column: null,
        value: null,
        reference: null,
        message: expect.stringMatching(/^no preset recognizes these columns.*cyclos4-users \("Login name", "E-mail", "Balance", "Name"\)/),
        code: expect.stringMatching(/^no preset recognizes these columns.*\{presets\}$/),
        params: { presets: expect.stringContaining("odoo-contacts") },
      },
    ]);
    // A French association's spreadsheet shares three headers with Cyclos's users export (its
    // login, name and e-mail in French) but has no balance column: no preset claims it.
    const french = await membersOf(tmpFile("Identifiant;Nom;Prénom;Courriel;Montant\nac;Crémieux;Élodie;elodie@example.org;1,00\n"));
    expect(french.preset).toBeNull();
    expect(french.problems.map((p) => p.message)).toEqual([expect.stringMatching(/^no preset recognizes these columns/)]);
    // Nor is a Mutua file without its balance taken for one.
    expect((await membersOf(tmpFile("external_id,first_name,last_name,email\nm1,A,B,a@example.org\n"))).preset).toBeNull();
    const mapped = await membersOf(tmpFile("Who;Mail;Money;Notes\nA;a@example.org;1;x\n"), {
      mapping: { externalId: "who", email: "MAIL", balance: "money", name: "Who" },
    });
    expect(mapped.problems.map((p) => p.message)).toEqual([expect.stringMatching(/single word/)]);
    expect(mapped).toMatchObject({ preset: "custom", unknownColumns: ["Notes"] });
  });

  it("overrides a named preset's columns with a mapping", async () => {
    const file = await membersOf(tmpFile('"Name","Login name","E-mail","Solde au 31/12"\n"Ann LEE","al","a@example.org","3,50"\n'), {
      preset: "cyclos4-users",
      mapping: { balance: "Solde au 31/12" },
      decimalSeparator: ",",
    });
    expect(file.problems).toEqual([]);
    expect(file.rows[0]).toMatchObject({ externalId: "al", balance: 350n });
    await expect(readMembersFile(fixture("cyclos4-users.csv"), { preset: "cyclos4-history" })).rejects.toThrow(/unknown members preset/);
  });

  it("keeps the first problems and counts the rest", async () => {
    const lines = ["external_id,first_name,last_name,email,balance", ...Array.from({ length: 30 }, (_, i) => `m${i},A,B,bad${i},1`)];
    const result = await membersOf(tmpFile(lines.join("\n")), { maxProblems: 10 });
    expect(result.problems).toHaveLength(10);
    expect(result.problemsOmitted).toBe(20);
    expect(result.problems[9]?.line).toBe(11);
  });

  it("reports an empty file, and a file that mixes encodings where it does", async () => {
    expect((await membersOf(tmpFile("\n\n"))).problems).toEqual([
      { file: expect.any(String), line: null, column: null, value: null, reference: null, message: "the file is empty" },
    ]);
    const mixed = Buffer.concat([
      Buffer.from("external_id,first_name,last_name,email,balance\nm1,Élodie,B,e@example.org,1\n" + "m2,A,B,a@example.org,1\n".repeat(300)),
      Buffer.from("m3,L\xe9a,B,l@example.org,1\n", "latin1"),
    ]);
    const result = await membersOf(tmpFile(mixed));
    expect(result.problems).toEqual([
      { file: expect.any(String), line: 303, column: null, value: null, reference: null, message: expect.stringMatching(/mixes encodings/) },
    ]);
  });
});

describe("history files", () => {
  it("reads a French spreadsheet's history: Windows-1252, dd/mm/yyyy, a memo with ';' and a line break", async () => {
    const mapping = await loadMapping(fixture("mapping-fr.json"));
    const file = await readHistoryFile(fixture("historique-1252.csv"), { mapping: mapping.history });
    const rows = await allRows(file);
    expect(file).toMatchObject({ preset: "custom", encoding: "windows-1252", delimiter: ";", problems: [], problemsOmitted: 0 });
    expect(rows).toEqual([
      { line: 2, date: new Date("2024-03-15T11:00:00Z"), from: null, to: "A001", amount: 10000n, memo: "Adhésion + change €", reference: "T1" },
      { line: 3, date: new Date("2024-03-16T13:30:00Z"), from: "A001", to: "B001", amount: 1250n, memo: 'Marché de Noël; stand "4" 2e ligne', reference: "T2" },
      { line: 4, date: new Date("2024-04-01T10:00:00Z"), from: "B001", to: "A002", amount: 123400n, memo: "Remboursement œuvre", reference: "T3" },
    ]);
  });

  it("recognizes a Cyclos 4 transfers export", async () => {
    const file = await readHistoryFile(fixture("cyclos4-history.csv"), { timeZone: "Europe/Paris" });
    const rows = await allRows(file);
    expect(file).toMatchObject({ preset: "cyclos4-history", problems: [] });
    expect(file.columns).toMatchObject({ memo: ["Description"], reference: ["Transaction number"] });
    expect(rows.map((r) => [r.line, r.date.toISOString(), r.from, r.to, r.amount, r.reference])).toEqual([
      [2, "2023-11-05T08:12:44.000Z", "jdupont", "amlefebvre", 1200n, "TX-0001"],
      [3, "2023-11-05T09:00:00.000Z", null, "jdupont", 5000n, "TX-0002"],
      [4, "2023-11-06T11:00:00.000Z", "amlefebvre", null, 750n, "TX-0003"],
    ]);
  });

  it("names file, line, column and value of every problem, and reads on", async () => {
    const file = tmpFile(
      [
        "date;from;to;amount;memo;reference",
        "31/02/2024;m1;m2;1,00;;r1",
        "03/15/2024;m1;m2;1,00;;r2",
        "01/03/2024;m1;m2;abc;;r3",
        "01/03/2024;m1;m2;0;;r4",
        "01/03/2024;m1;m2;-5,00;;r5",
        "01/03/2024;m1;m2;5,00;;r1",
        "01/03/2024;;;5,00;;r7",
        "01/03/2024;m1;zz;5,00;;r8",
        "01/03/2024;m2;m2;5,00;;r9",
        ";m1;m2;5,00;;",
        "02/03/2024;m2;m1;1.234;fine;r10",
      ].join("\r\n"),
    );
    const history = await readHistoryFile(file, { members: new Set(["m1", "m2"]) });
    const rows = await allRows(history);
    expect(history.problems).toEqual([
      { file, line: 2, column: "date", value: "31/02/2024", reference: "r1", message: "impossible date" },
      { file, line: 3, column: "date", value: "03/15/2024", reference: "r2", message: "looks like month/day/year; dates are read day/month/year" },
      { file, line: 4, column: "amount", value: "abc", reference: "r3", message: "not an amount" },
      { file, line: 5, column: "amount", value: "0", reference: "r4", message: expect.stringMatching(/must be more than zero/) },
      { file, line: 6, column: "amount", value: "-5,00", reference: "r5", message: expect.stringMatching(/must be more than zero/) },
      {
        file,
        line: 7,
        column: "reference",
        value: "r1",
        reference: "r1",
        message: "reference already on row 2",
        code: "reference already on row {row}",
        params: { row: 2 },
      },
      { file, line: 8, column: "from", value: "", reference: "r7", message: expect.stringMatching(/neither from nor to/) },
      { file, line: 9, column: "to", value: "zz", reference: "r8", message: "no member of the members file has this external id" },
      { file, line: 10, column: "to", value: "m2", reference: "r9", message: "from and to are the same" },
      {
        file,
        line: 11,
        column: "date",
        value: "",
        reference: null,
        message: "empty; the date is required",
        code: "empty; the {field} is required",
        params: { field: "date" },
      },
    ]);
    expect(rows).toEqual([{ line: 12, date: new Date("2024-03-02T11:00:00Z"), from: "m2", to: "m1", amount: 123400n, memo: "fine", reference: "r10" }]);
  });

  it("refuses the ambiguous amounts of a tab-separated file unless told the decimal separator", async () => {
    const file = tmpFile("date\tfrom\tto\tamount\n01/03/2024\tm1\tm2\t1.234\n01/03/2024\tm1\tm2\t12,50\n");
    const guessed = await readHistoryFile(file);
    expect((await allRows(guessed)).map((r) => r.amount)).toEqual([1250n]);
    expect(guessed.problems).toEqual([{ file, line: 2, column: "amount", value: "1.234", reference: null, message: expect.stringMatching(/^ambiguous/) }]);
    const told = await readHistoryFile(file, { decimalSeparator: "," });
    expect((await allRows(told)).map((r) => r.amount)).toEqual([123400n, 1250n]);
  });

  it("names the missing column, and refuses an unknown time zone", async () => {
    const history = await readHistoryFile(tmpFile("date,from,to,memo\n01/03/2024,a,b,x\n"), { preset: "mutua" });
    expect(history.problems).toEqual([
      {
        file: expect.any(String),
        line: 1,
        column: "amount",
        value: null,
        reference: null,
        message: 'missing column: expected "amount" (preset mutua)',
        code: "missing column: expected {expected} (preset {preset})",
        params: { expected: '"amount"', preset: "mutua" },
      },
    ]);
    expect(await allRows(history)).toEqual([]);
    await expect(readHistoryFile(fixture("cyclos4-history.csv"), { timeZone: "Europe/Pariss" })).rejects.toThrow(/unknown time zone "Europe\/Pariss"/);
  });

  it("reads a file that is ASCII for megabytes and Windows-1252 at the end", async () => {
    const line = "01/03/2024;m1;m2;1,00;plain;\n";
    const count = Math.ceil((3 * 1024 * 1024) / line.length);
    const file = tmpFile(
      Buffer.concat([Buffer.from("date;from;to;amount;memo;reference\n" + line.repeat(count)), Buffer.from("02/03/2024;m1;m2;2,00;Caf\xe9 \x80;\n", "latin1")]),
    );
    const history = await readHistoryFile(file);
    let last: HistoryRow | undefined;
    let rows = 0;
    for await (const r of history.rows) [last, rows] = [r, rows + 1];
    expect(history.problems).toEqual([]);
    expect(history.encoding).toBe("windows-1252");
    expect(rows).toBe(count + 1);
    expect(last).toMatchObject({ line: count + 2, memo: "Café €", amount: 200n });
  });

  it("streams 200,000 lines without holding the file", async () => {
    const N = 200_000;
    const file = tmpPath("big-history.csv");
    const out = fs.createWriteStream(file);
    out.write("Date;De;À;Montant;Libellé;Réf\n");
    for (let i = 0; i < N; i++) {
      const day = String((i % 28) + 1).padStart(2, "0");
      const month = String((i % 12) + 1).padStart(2, "0");
      const cents = String(i % 100).padStart(2, "0");
      if (
        !out.write(
          `${day}/${month}/2023 ${String(i % 24).padStart(2, "0")}:15;m${i % 500};m${(i + 1) % 500};${(i % 1000) + 1},${cents};Paiement n°${i};R${i}\n`,
        )
      ) {
        await new Promise((resolve) => out.once("drain", resolve));
      }
    }
    await new Promise((resolve) => out.end(resolve));

    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    let peak = 0;
    let rows = 0;
    let last: HistoryRow | undefined;
    const history = await readHistoryFile(file, { mapping: (await loadMapping(fixture("mapping-fr.json"))).history });
    for await (const r of history.rows) {
      [rows, last] = [rows + 1, r];
      if (rows % 50_000 === 0) {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - before);
      }
    }
    expect(history.problems).toEqual([]);
    expect(history.encoding).toBe("utf-8");
    expect(rows).toBe(N);
    expect(last).toMatchObject({ line: N + 1, reference: `R${N - 1}`, memo: `Paiement n°${N - 1}` });
    // The file is some 12 MB; what is kept is the references seen (200,000 short strings).
    expect(peak).toBeLessThan(64 * 1024 * 1024);
  });
});
