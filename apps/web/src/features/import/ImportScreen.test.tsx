import { afterEach, beforeAll, describe, expect, it, vi, type Mock } from "vitest";
import type { ReactNode } from "react";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { I18nProvider } from "@lingui/react";
import type { Messages } from "@lingui/core";
import type { MutuaClient } from "@mutua/client";
import { IMPORT_PART_BYTES, type AppConfig, type ImportPreviewView, type Invitations } from "@mutua/domain";
import { AppEnvContext } from "../../lib/context";
import { i18n } from "../../lib/i18n";
import catalog from "../../locales/en-US.json";
import { ImportScreen, InvitationsView, PreviewView, ResultView } from "./ImportScreen";
import { isOne } from "./labels";
import { base64Of, uploadFile } from "./upload";

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en-US", messages: (catalog as { messages: Messages }).messages });
  // jsdom has <dialog> without its methods (see ui/Dialog.test.tsx).
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute("open", "");
    (this.querySelector<HTMLElement>("[autofocus]") ?? this).focus();
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute("open");
  };
});
afterEach(cleanup);

const config = { locales: { availableLanguages: {} } } as unknown as AppConfig;

type Op = "uploadImportFile" | "previewImport" | "runImport" | "getInvitations" | "sendInvitations";

/** A client whose `send` (what @mutua/client's `admin.call` sends through) hands each operation's body to the test's mock. */
function wrap(children: ReactNode, ops: Partial<Record<Op, Mock>> = {}) {
  const client = {
    send: (name: Op, _route: unknown, a: { body?: unknown } = {}) => {
      const op = ops[name];
      return op ? op(a.body) : Promise.reject(new Error(`unexpected call of ${name}`));
    },
  } as unknown as MutuaClient;
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <AppEnvContext.Provider value={{ config, client }}>
      <QueryClientProvider client={qc}>
        <I18nProvider i18n={i18n}>{children}</I18nProvider>
      </QueryClientProvider>
    </AppEnvContext.Provider>,
  );
}

const preview: ImportPreviewView = {
  backend: { id: "ledger:flo", kind: "ledger", symbol: "FLO" },
  members: {
    file: "adherents.csv",
    preset: "cyclos",
    encoding: "windows-1252",
    delimiter: ";",
    headers: ["Login", "Name", "E-mail", "Balance", "Fax", "Droits"],
    columns: { externalId: ["Login"], name: ["Name"], email: ["E-mail"], balance: ["Balance"] },
    unknownColumns: ["Fax"],
    ignoredRights: ["Droits"],
    read: 4,
    existing: [
      { line: 5, email: "alice@example.com", name: "Alice Martin", createdAt: "2019-06-02T08:00:00.000Z", emailVerified: true },
      { line: 6, email: "victor@example.com", name: "Victor Vu", createdAt: "2024-11-24T18:00:00.000Z", emailVerified: false },
    ],
    alreadyImported: 0,
    toImport: 3,
    total: "1234.50 FLO",
    businesses: 0,
    businessesKept: 0,
    sample: [{ line: 2, externalId: "17", name: "Bruno Petit", email: "bruno@example.com", balance: "-12.00" }],
  },
  history: {
    file: "historique.csv",
    preset: "cyclos",
    encoding: "utf-8",
    delimiter: ",",
    headers: ["Date", "From", "To", "Amount"],
    columns: { date: ["Date"], from: ["From"], to: ["To"], amount: ["Amount"] },
    unknownColumns: [],
    lines: 120,
    first: "2021-03-04T12:00:00.000Z",
    last: "2024-11-25T12:00:00.000Z",
    cameIn: "5000.00",
    wentOut: "3765.50",
  },
  problems: [],
  problemsOmitted: 0,
  warnings: [],
};

const invitations: Invitations = {
  notInvited: 3,
  waiting: 2,
  sent: 10,
  failed: 1,
  accepted: 4,
  failures: [{ name: "Carla Roux", email: "carla@example", error: "mailbox unknown" }],
};

describe("the import's preview", () => {
  it("with problems: each where to find it, those left out counted, and no Import button", () => {
    wrap(
      <PreviewView
        preview={{
          ...preview,
          problems: [
            {
              file: "adherents.csv",
              line: 4,
              column: "Email",
              value: "bruno@",
              reference: "A017",
              message: "not an e-mail address",
              code: "not an e-mail address",
              params: {},
            },
            {
              file: "historique.csv",
              line: null,
              column: null,
              value: null,
              reference: null,
              message: "the file is empty",
              code: "the file is empty",
              params: {},
            },
          ],
          problemsOmitted: 7,
        }}
        importing={false}
        onImport={() => undefined}
      />,
    );
    const alert = screen.getByRole("alert");
    within(alert).getByText("9 problems: nothing can be imported until they are fixed");
    expect(
      within(alert)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["adherents.csv, row 4 (A017), column Email, value “bruno@”: not an e-mail address", "historique.csv: the file is empty"]);
    within(alert).getByText("… and 7 more");
    expect(screen.queryByRole("button", { name: "Import" })).toBeNull();
  });

  it("the shops' profiles it lists, and what it reads otherwise than written, which does not stop it", () => {
    const warning = {
      file: "adherents.csv",
      line: 3,
      column: "category",
      value: "Quincaillerie",
      reference: null,
      message: "no category of the association's is called so",
      code: "no category of the association's is called so",
      params: {},
    };
    wrap(
      <PreviewView
        preview={{ ...preview, members: { ...preview.members, businesses: 2, businessesKept: 1 }, warnings: [warning] }}
        importing={false}
        onImport={() => undefined}
      />,
    );
    screen.getByText("Businesses listed in the directory");
    screen.getByText("1 already have a profile here: it stays as it is");
    const note = screen.getByRole("note");
    within(note).getByText("Lines imported otherwise than written: 1");
    expect(within(note).getByRole("listitem").textContent).toBe(
      "adherents.csv, row 3, column category, value “Quincaillerie”: no category of the association's is called so",
    );
    screen.getByRole("button", { name: "Import" });
  });

  it("without problems: what will be imported, the balances' total, the first rows and the Import button", () => {
    const onImport = vi.fn();
    wrap(<PreviewView preview={preview} importing={false} onImport={onImport} />);
    screen.getByRole("heading", { level: 2, name: "What will be imported" });
    screen.getByText("3 members to import");
    screen.getByText("Read as WINDOWS-1252, values separated by semicolons");
    screen.getByText("1,234.50 FLO");
    screen.getByText("Already members (same e-mail): 2");
    // When each account was made, and whether its address was ever verified: an account opened yesterday with an old member's address stands out.
    const [alice, victor] = screen.getAllByRole("listitem").filter((li) => /@example\.com/.test(li.textContent ?? ""));
    expect(alice!.textContent).toBe("Alice Martin alice@example.com member since Jun 2, 2019 address verified");
    expect(victor!.textContent).toBe("Victor Vu victor@example.com member since Nov 24, 2024 address not verified: the balance waits for the invitation");
    screen.getByText(/its member gets it by opening the invitation sent to that address/);
    screen.getByText("Not imported (column Droits): grant them from the members' pages once the members are in.");
    screen.getByText("Fax");
    screen.getByText("120 lines");
    // The history: how it was read, and the money that came into the system and left it.
    screen.getByText("Read as UTF-8, values separated by commas");
    screen.getByText("5,000.00 FLO");
    screen.getByText("3,765.50 FLO");
    screen.getByText(/^From Mar 4, 2021 to Nov 25, 2024$/);
    const row = screen.getByRole("row", { name: /Bruno Petit/ });
    expect(
      within(row)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["2", "Bruno Petit", "bruno@example.com", "\u221212.00 FLO"]);
    expect(screen.queryByRole("alert")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Import" }));
    expect(onImport).toHaveBeenCalledOnce();
  });

  it("while the import runs, the button says so and does nothing", () => {
    const onImport = vi.fn();
    wrap(<PreviewView preview={preview} importing onImport={onImport} />);
    const button = screen.getByRole("button", { name: "Importing…" });
    expect(button.getAttribute("aria-busy")).toBe("true");
    expect(button.getAttribute("aria-disabled")).toBe("true");
    fireEvent.click(button);
    expect(onImport).not.toHaveBeenCalled();
  });

  it("the result: what was written, and when nothing was new", () => {
    const result = {
      imported: true,
      preview,
      members: 3,
      linked: 0,
      held: 0,
      alreadyImported: 0,
      businesses: 0,
      movements: 1,
      skippedLines: 0,
      total: "1234.50 FLO",
    };
    const { unmount } = wrap(<ResultView result={result} />);
    screen.getByText("Imported 3 members and 1 movement.");
    expect(screen.queryByText(/Nothing new/)).toBeNull();
    unmount();
    wrap(<ResultView result={{ ...result, members: 0, movements: 0, alreadyImported: 3 }} />);
    screen.getByText("Nothing new to import: everything in these files was imported before.");
  });
});

describe("the invitations", () => {
  it("counts them, lists the failures, and offers to invite those not invited yet", () => {
    const onInvite = vi.fn();
    wrap(<InvitationsView invitations={invitations} busy={false} onInvite={onInvite} />);
    const counts = Object.fromEntries([...document.querySelectorAll(".import-counts dt")].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]));
    expect(counts).toEqual({ "Not invited yet": "3", Waiting: "2", Sent: "10", Failed: "1", Accepted: "4" });
    screen.getByText("Carla Roux");
    screen.getByText(/mailbox unknown/);
    fireEvent.click(screen.getByRole("button", { name: "Invite 3 members" }));
    expect(onInvite).toHaveBeenCalledOnce();
  });

  it("no button when everyone was invited", () => {
    wrap(<InvitationsView invitations={{ ...invitations, notInvited: 0 }} busy={false} onInvite={() => undefined} />);
    expect(screen.queryByRole("button", { name: /Invite/ })).toBeNull();
  });
});

describe("the upload", () => {
  it("sends a file a part at a time, in order, the first opening the upload", async () => {
    const bytes = new Uint8Array(IMPORT_PART_BYTES * 2 + 10).map((_, i) => i % 251);
    const file = new File([bytes], "adherents.csv", { type: "text/csv" });
    const send = vi.fn((b: { index: number }) => Promise.resolve({ uploadId: "up_1", bytes: b.index }));
    const sent: number[] = [];
    expect(await uploadFile(file, "members", send, (n) => sent.push(n))).toBe("up_1");
    expect(send.mock.calls.map(([b]) => b)).toMatchObject([
      { uploadId: null, kind: "members", name: "adherents.csv", index: 0 },
      { uploadId: "up_1", index: 1 },
      { uploadId: "up_1", index: 2, data: base64Of(bytes.subarray(IMPORT_PART_BYTES * 2)) },
    ]);
    expect(sent).toEqual([IMPORT_PART_BYTES, IMPORT_PART_BYTES, 10]);
    expect(atob(base64Of(new Uint8Array([0, 255, 10])))).toBe("\u0000\u00ff\n");
  });

  it("picks the singular as each language does", () => {
    expect([0, 1, 2].map((n) => isOne(n, "en-US"))).toEqual([false, true, false]);
    expect([0, 1, 2].map((n) => isOne(n, "fr-FR"))).toEqual([true, true, false]);
  });
});

describe("the import screen", () => {
  it("uploads the files, shows what will be imported, imports once confirmed", async () => {
    const ops = {
      getInvitations: vi.fn().mockResolvedValue({ ...invitations, notInvited: 0, waiting: 0, failures: [] }),
      uploadImportFile: vi.fn((b: { kind: string }) =>
        Promise.resolve({ uploadId: b.kind === "members" ? `up_${"a".repeat(32)}` : `up_${"b".repeat(32)}`, bytes: 4 }),
      ),
      previewImport: vi.fn().mockResolvedValue(preview),
      runImport: vi.fn().mockResolvedValue({
        imported: true,
        preview,
        members: 3,
        linked: 1,
        held: 1,
        alreadyImported: 0,
        businesses: 0,
        movements: 120,
        skippedLines: 0,
        total: "1234.50 FLO",
      }),
    };
    wrap(<ImportScreen />, ops);
    await screen.findByText("Accepted");
    fireEvent.change(screen.getByLabelText("Members file"), { target: { files: [new File(["a;b\n"], "adherents.csv")] } });
    fireEvent.change(screen.getByLabelText("History file (optional)"), { target: { files: [new File(["c;d\n"], "historique.csv")] } });
    fireEvent.click(screen.getByRole("button", { name: "Check the files" }));
    await screen.findByText("3 members to import");
    expect(ops.uploadImportFile.mock.calls.map(([b]) => b)).toMatchObject([
      { kind: "members", name: "adherents.csv", index: 0, uploadId: null, data: btoa("a;b\n") },
      { kind: "history", name: "historique.csv", index: 0, uploadId: null, data: btoa("c;d\n") },
    ]);
    const uploads = { members: `up_${"a".repeat(32)}`, history: `up_${"b".repeat(32)}` };
    expect(ops.previewImport).toHaveBeenCalledWith({ ...uploads, mapping: null });

    fireEvent.click(screen.getByRole("button", { name: "Import" }));
    const dialog = screen.getByRole("dialog", { name: "Import 3 members with balances of 1,234.50 FLO?" });
    within(dialog).getByText("This writes them into Mutua at once.");
    fireEvent.click(within(dialog).getByRole("button", { name: "Import" }));
    await screen.findByText("Imported 3 members and 120 movements.");
    screen.getByText("1 member already here received their balance and history.");
    screen.getByText("1 of them never verified their address: their balance waits until they open their invitation.");
    expect(ops.runImport).toHaveBeenCalledWith({ ...uploads, mapping: null });
    expect(screen.queryByRole("button", { name: "Import" })).toBeNull();
  });

  it("offers to match the columns of a file no known format reads; each choice reads the files again with the matching", async () => {
    const unread: ImportPreviewView = {
      ...preview,
      members: { ...preview.members, preset: null, headers: ["Identifiant", "Nom", "Courriel", "Montant"], columns: {} },
      history: null,
    };
    const matched: ImportPreviewView = { ...unread, members: { ...unread.members, preset: "custom", columns: { externalId: ["Identifiant"] } } };
    const ops = {
      getInvitations: vi.fn().mockResolvedValue(invitations),
      uploadImportFile: vi.fn().mockResolvedValue({ uploadId: `up_${"a".repeat(32)}`, bytes: 4 }),
      previewImport: vi.fn().mockResolvedValueOnce(unread).mockResolvedValueOnce(matched),
    };
    wrap(<ImportScreen />, ops);
    fireEvent.change(screen.getByLabelText("Members file"), { target: { files: [new File(["a;b\n"], "adherents.csv")] } });
    fireEvent.click(screen.getByRole("button", { name: "Check the files" }));
    await screen.findByRole("heading", { name: "Match the columns" });
    const number = screen.getByLabelText<HTMLSelectElement>("Member number in the old system");
    expect([...number.options].map((o) => o.text)).toEqual(["Not in the file", "Identifiant", "Nom", "Courriel", "Montant"]);
    expect(number.value).toBe("");
    // The known formats' preview is not offered to match: only the file no format reads.
    expect(screen.queryByLabelText("Payer's member number")).toBeNull();
    fireEvent.change(number, { target: { value: "Identifiant" } });
    await waitFor(() => expect(screen.getByLabelText<HTMLSelectElement>("Member number in the old system").value).toBe("Identifiant"));
    expect(ops.previewImport).toHaveBeenLastCalledWith({ members: `up_${"a".repeat(32)}`, history: null, mapping: { members: { externalId: "Identifiant" } } });
  });

  it("refuses a members file past 20 MB before sending anything", async () => {
    const ops = { getInvitations: vi.fn().mockResolvedValue(invitations), uploadImportFile: vi.fn() };
    wrap(<ImportScreen />, ops);
    const big = new File(["a"], "adherents.csv");
    Object.defineProperty(big, "size", { value: 21 * 1024 * 1024 });
    fireEvent.change(screen.getByLabelText("Members file"), { target: { files: [big] } });
    screen.getByText("The members file is too large: at most 20 MB can be imported at once.");
    fireEvent.click(screen.getByRole("button", { name: "Check the files" }));
    await new Promise((r) => setTimeout(r, 20));
    expect(ops.uploadImportFile).not.toHaveBeenCalled();
  });

  it("asks for the members file before sending anything", async () => {
    const ops = { getInvitations: vi.fn().mockResolvedValue(invitations), uploadImportFile: vi.fn() };
    wrap(<ImportScreen />, ops);
    fireEvent.click(screen.getByRole("button", { name: "Check the files" }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText("Members file")));
    screen.getByText("Choose the members file.");
    expect(ops.uploadImportFile).not.toHaveBeenCalled();
  });
});
