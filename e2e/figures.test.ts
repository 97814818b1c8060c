import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import * as XLSX from "xlsx";
import type { Page } from "playwright-core";
import { toastText } from "./support/browser";
import { sql } from "./support/server";
import { signedIn, useSuite } from "./support/suite";
import { checkLedgerNow, downloadBooks, ledgerHealth, openFigures, openFiguresFromMenu, readFigures, showPeriod } from "./pages/board";

/**
 * The board's figures: the board login reads, for the demo association, each figure
 * the database's own sums give (computed here with SQL of the test's own, not the server's);
 * a top-up credited and a reconversion paid out move them by exactly their amounts; a row broken
 * behind the ledger's back shows first on the page, in red, after a check.
 */
const suite = useSuite();
const CURRENCY = "demo-lokal";

const q = async <T>(text: string, params: unknown[] = []) => (await sql(suite.server, text, params)) as T[];

/** What the database says for the period [from, to] in `tz`, each figure by its definition. */
async function expected(from: string, to: string, tz: string) {
  const [stock] = await q<Record<"circulation" | "owed" | "held" | "at_floor" | "at_ceiling", string>>(
    `SELECT coalesce(sum(a.balance), 0)::text AS circulation,
       coalesce(sum(a.balance) FILTER (WHERE a.kind = 'cm' AND a.balance < 0), 0)::text AS owed,
       coalesce(sum(a.balance) FILTER (WHERE a.kind = 'cm' AND a.balance > 0), 0)::text AS held,
       count(*) FILTER (WHERE a.kind = 'cm' AND a.floor < 0 AND a.balance <= a.floor)::text AS at_floor,
       count(*) FILTER (WHERE a.kind = 'cm' AND a.ceiling IS NOT NULL AND a.balance >= a.ceiling)::text AS at_ceiling
     FROM accounts a JOIN wallets w ON w.id = a.wallet_id WHERE w.role = 'member' AND a.currency_id = $1`,
    [CURRENCY],
  );
  const [reserve] = await q<{ reserve: string }>(
    `SELECT (coalesce(sum(amount) FILTER (WHERE kind = 'topup'), 0) - coalesce(sum(amount) FILTER (WHERE kind = 'retirement'), 0))::text AS reserve
     FROM movements WHERE currency_id = $1`,
    [CURRENCY],
  );
  const [people] = await q<{ with_wallet: string; active: string }>(
    `SELECT (SELECT count(DISTINCT w.member_id) FROM wallets w JOIN backends b ON b.id = w.backend_id
             WHERE b.currency_id = $1 AND w.role = 'member' AND w.status = 'active')::text AS with_wallet,
            (SELECT count(DISTINCT w.member_id) FROM movements m JOIN wallets w ON w.id IN (m.payer_wallet_id, m.payee_wallet_id)
             WHERE m.currency_id = $1 AND m.kind = 'payment' AND w.role = 'member' AND m.created_at > now() - interval '30 days')::text AS active`,
    [CURRENCY],
  );
  const flows = await q<{ kind: string; n: string; volume: string }>(
    `SELECT kind, count(*)::text AS n, sum(amount)::text AS volume FROM movements
     WHERE currency_id = $1 AND created_at >= ($2::date::timestamp AT TIME ZONE $4) AND created_at < (($3::date + 1)::timestamp AT TIME ZONE $4)
     GROUP BY kind`,
    [CURRENCY, from, to, tz],
  );
  const flow = (kind: string) => {
    const f = flows.find((r) => r.kind === kind);
    return { count: Number(f?.n ?? 0), volume: BigInt(f?.volume ?? 0) };
  };
  const circulation = BigInt(stock!.circulation);
  return {
    circulation,
    reserve: BigInt(reserve!.reserve),
    owed: BigInt(stock!.owed),
    held: BigInt(stock!.held),
    atFloor: Number(stock!.at_floor),
    atCeiling: Number(stock!.at_ceiling),
    withWallet: Number(people!.with_wallet),
    active: Number(people!.active),
    payment: flow("payment"),
    topup: flow("topup"),
    reconversion: flow("reconversion"),
    retirement: flow("retirement"),
  };
}

/** What the page shows for the demo currency, read the way a member reads it. */
const shown = (page: Page) => readFigures(page, "Demo Lokal");

/** Asks for the period [from, to] by month, and waits for the demo currency's figures of it. */
const showDemoPeriod = (page: Page, from: string, to: string) => showPeriod(page, from, to, "Demo Lokal");

/** Calls the API from the administrator's page, as the app does (same origin, session cookie). */
const adminCall = (page: Page, path: string, body: unknown) =>
  page.evaluate(
    async ({ path, body }) => {
      const r = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      return { status: r.status, json: (await r.json()) as unknown };
    },
    { path, body },
  );

const day = (d: Date) => d.toISOString().slice(0, 10);

describe("the board's figures", () => {
  it("each figure is the database's own sum; a top-up credited and a reconversion paid out move them by exactly their amounts", async () => {
    const board = await signedIn(suite, "board@example.com");
    const { page } = board;
    // A board member with no account of her own lands on the figures.
    expect(new URL(page.url()).pathname).toBe("/admin/figures");
    await openFiguresFromMenu(page, "Bea Board");
    const tz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const to = day(new Date());
    const from = day(new Date(Date.now() - 200 * 86_400_000));
    await showDemoPeriod(page, from, to);

    const check = async () => {
      const want = await expected(from, to, tz);
      const got = await shown(page);
      const { coverage, ...rest } = got;
      expect(rest).toEqual({ ...want });
      // reserve / circulation, in percent with two decimals.
      const pct = Number((want.reserve * 1_000_000n) / want.circulation) / 10_000;
      expect(Number(coverage.replace(/[^\d.]/g, ""))).toBeCloseTo(pct, 1);
      return want;
    };
    const before = await check();
    // The demo's history has every kind of movement in these 200 days.
    expect(before.payment.count).toBeGreaterThan(0);
    expect(before.reconversion.count).toBe(1);
    expect(before.owed).toBeLessThan(0n);

    // A credit administrator credits Alice's paid top-up of 25.00 DL.
    const admin = await signedIn(suite, "admin@example.com");
    const [order] = await q<{ public_id: string }>("SELECT public_id FROM topup_orders WHERE reference = 'MU-DEMO2-ALICE'");
    expect((await adminCall(admin.page, "/api/admin/credit-requests/validate", { id: order!.public_id })).status).toBe(200);
    await page.reload();
    await showDemoPeriod(page, from, to);
    const credited = await check();
    expect(credited.circulation - before.circulation).toBe(2500n);
    expect(credited.reserve - before.reserve).toBe(2500n);
    expect(credited.topup).toEqual({ count: before.topup.count + 1, volume: before.topup.volume + 2500n });

    // ...and pays out Alice's reconversion of 20.00 DL: it leaves the reserve, not circulation (it left that when sent).
    const [reconversion] = await q<{ public_id: string; amount: string }>(
      "SELECT m.public_id, m.amount::text FROM reconversions r JOIN movements m ON m.id = r.movement_id WHERE r.status <> 'paid'",
    );
    for (const status of ["received", "invoiced", "paid"])
      expect((await adminCall(admin.page, "/api/admin/reconversions/advance", { id: reconversion!.public_id, status })).status).toBe(200);
    await page.reload();
    await showDemoPeriod(page, from, to);
    const paid = await check();
    expect(paid.circulation).toBe(credited.circulation);
    expect(credited.reserve - paid.reserve).toBe(BigInt(reconversion!.amount));
    expect(paid.retirement).toEqual({ count: credited.retirement.count + 1, volume: credited.retirement.volume + BigInt(reconversion!.amount) });
  });

  it("ledger health: a posting written with the ledger's triggers off is shown first, in red, after a check", async () => {
    const { page } = await signedIn(suite, "board@example.com");
    await openFigures(page);
    const health = ledgerHealth(page);
    await checkLedgerNow(page);
    await toastText(page, "The ledger was checked: no problem found.");
    await health.getByText("No problem found").waitFor();
    await health.getByText("Asked by Bea Board").waitFor();

    const [last] = await q<{ movement_id: string; account_id: string }>("SELECT movement_id::text, account_id::text FROM postings ORDER BY id DESC LIMIT 1");
    const broken = `BEGIN; SET LOCAL session_replication_role = replica;
      INSERT INTO postings (movement_id, account_id, amount, balance_after) VALUES (${last!.movement_id}, ${last!.account_id}, 100, 0); COMMIT;`;
    await sql(suite.server, broken);
    // Asked again within a minute, the last check is the answer: the first one is made a minute old.
    await sql(suite.server, "UPDATE ledger_checks SET at = at - interval '61 seconds'");
    try {
      await checkLedgerNow(page);
      const problems = health.locator(".ledger-problems");
      await problems.getByText(`movement ${last!.movement_id} is not balanced`).waitFor();
      await problems.getByRole("heading", { name: /^Problems found in the ledger: \d+$/ }).waitFor();
      // First on the page, before any figure, and in the danger colour.
      const order = await page.evaluate(() => {
        const p = document.querySelector(".ledger-problems")!;
        const figures = document.querySelector(".figures-currency, .figures-period")!;
        return p.compareDocumentPosition(figures) & Node.DOCUMENT_POSITION_FOLLOWING;
      });
      expect(order).toBeTruthy();
      const colours = await problems.evaluate((el) => ({
        text: getComputedStyle(el).color,
        danger: getComputedStyle(el).getPropertyValue("--danger-color").trim(),
      }));
      const probe = await page.evaluate((c) => {
        const s = document.createElement("span");
        s.style.color = c;
        document.body.append(s);
        const rgb = getComputedStyle(s).color;
        s.remove();
        return rgb;
      }, colours.danger);
      expect(colours.text).toBe(probe);
    } finally {
      await sql(
        suite.server,
        `BEGIN; SET LOCAL session_replication_role = replica;
         DELETE FROM postings WHERE movement_id = ${last!.movement_id} AND amount = 100 AND balance_after = 0; COMMIT;`,
      );
    }
  });

  it("the books: the movements file sums to the totals on screen and opens in a spreadsheet with its accents, amounts and dates; each statement runs", async () => {
    const { page } = await signedIn(suite, "board@example.com");
    await openFigures(page);
    const to = day(new Date());
    const from = day(new Date(Date.now() - 200 * 86_400_000));
    await showDemoPeriod(page, from, to);
    const onScreen = await shown(page);

    const movements = await downloadBooks(page, "movements", "Dot (1234.50)");
    expect(movements.suggestedFilename()).toBe(`movements_${from}_${to}.csv`);
    const bytes = fs.readFileSync(await movements.path());
    // UTF-8's byte order mark: without it, a spreadsheet reads "Repair café" as "Repair cafÃ©".
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const sheet = XLSX.read(bytes, { type: "buffer" });
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet.Sheets[sheet.SheetNames[0]!]!, { header: 1, raw: true });
    expect(rows[0]).toEqual([
      "Date",
      "Reference",
      "Kind",
      "Payer",
      "Payee",
      "Currency",
      "Amount",
      "Sender memo",
      "Recipient memo",
      "Payer balance after",
      "Payee balance after",
      // The columns of a payment across a link come last: empty here, the demo association has no link.
      "Other association",
      "Amount in the other currency",
      "Other currency",
      "Exchange rate",
      // Then an imported movement's reference in the old system's books: empty here, nothing was imported.
      "Reference in the old system",
    ]);
    const body = rows.slice(1);
    // Dates and amounts come in as the spreadsheet's own dates and numbers, nothing to retype.
    expect(body.every((r) => typeof r[0] === "number" && typeof r[6] === "number")).toBe(true);
    expect(body.some((r) => r[7] === "Repair café" && r[3] === "Carol Petit" && r[4] === "Alice Martin")).toBe(true);
    const of = (kind: string) => {
      const mine = body.filter((r) => r[2] === kind);
      return { count: mine.length, volume: mine.reduce((sum, r) => sum + BigInt(Math.round((r[6] as number) * 100)), 0n) };
    };
    expect(of("Payment")).toEqual(onScreen.payment);
    expect(of("Top-up")).toEqual(onScreen.topup);
    expect(of("Reconversion")).toEqual(onScreen.reconversion);
    expect(of("Reconversion paid out")).toEqual(onScreen.retirement);
    await toastText(page, "Books downloaded");

    // The statements, with the language's comma: each line's balance is the one before plus its amount.
    const statements = await downloadBooks(page, "statements", "Comma (1234,50)");
    const lines = parse(fs.readFileSync(await statements.path(), "utf8"), { bom: true, delimiter: ";" }) as string[][];
    expect(lines[0]).toEqual([
      "Account",
      "Wallet",
      "Date",
      "Reference",
      "Kind",
      "Counterparty",
      "Memo",
      "Currency",
      "Amount",
      "Balance",
      "Reference in the old system",
    ]);
    const cents = (v: string) => BigInt(v.replace(",", "").replace(/^(-?)0+(?=\d)/, "$1"));
    let balance = 0n;
    let wallet = "";
    let checked = 0;
    for (const line of lines.slice(1)) {
      if (line[1] !== wallet) {
        // Each account opens with its balance before the period.
        expect(line[4]).toBe("Opening balance");
        wallet = line[1]!;
        balance = cents(line[9]!);
        continue;
      }
      expect(line[8]).toMatch(/^-?\d+,\d{2}$/);
      balance += cents(line[8]!);
      expect(cents(line[9]!), `${line[0]} ${line[3]}`).toBe(balance);
      checked++;
    }
    expect(checked).toBe(body.length * 2);
    // Alice's two wallets end where her accounts stand now (the period ends today).
    const [alice] = await q<{ total: string }>(
      "SELECT sum(a.balance)::text AS total FROM accounts a JOIN wallets w ON w.id = a.wallet_id JOIN members m ON m.id = w.member_id WHERE m.email = 'alice@example.com'",
    );
    const last = new Map<string, bigint>();
    for (const line of lines.slice(1)) if (line[0] === "Alice Martin") last.set(line[1]!, cents(line[9]!));
    expect([...last.values()].reduce((a, b) => a + b, 0n)).toBe(BigInt(alice!.total));
  });
});
