import { useId, useState, type ReactNode } from "react";
import { useLingui } from "@lingui/react";
import type { I18n } from "@lingui/core";
import {
  IMPORT_HISTORY_FIELDS,
  msg,
  type ImportHistoryField,
  type ImportMemberField,
  type ImportPreviewView,
  type ImportResult,
  type Invitations,
} from "@mutua/domain";
import { tr } from "../../lib/i18n";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { FileField } from "../../ui/FileField";
import { Skeleton } from "../../ui/Skeleton";
import { AdminTable } from "../association";
import { MATCHED_MEMBER_FIELDS, delimiterText, fieldText, problemText, useImportText, type ImportText } from "./labels";
import type { ImportMapping } from "./queries";
import { hasProblems, isMatched, useImportPage, type ImportPageState, type UploadProgress } from "./useImportPage";
import { tooLarge, type ImportFileKind } from "./upload";
import "./import.css";
import "../../ui/parts.css";

/** What the file inputs take: the old systems' exports, as CSV, TSV or text. */
const ACCEPT = ".csv,.tsv,.txt,text/csv";

/**
 * Moving in from another system, for the association's owners: the old system's members file
 * (and its history, if any) uploaded and read by the server, what an import would do shown with
 * every problem that stops it, the import confirmed and run, then the imported members invited to
 * choose their password.
 */
export function ImportScreen() {
  const { i18n } = useLingui();
  const page = useImportPage();
  const text = useImportText();
  const { preview, result } = page;
  const notInvited = page.invitations.data?.notInvited ?? 0;
  return (
    <main className="page import-page">
      <h1>{i18n._("Import members")}</h1>
      <p className="hint">
        {i18n._(
          "Bring your members, their balances and their history from your old system (Cyclos, Odoo or a spreadsheet). Nothing is written until you confirm.",
        )}
      </p>
      <FilesForm page={page} />
      {!result && preview && (isMatched(preview.members) || (preview.history && isMatched(preview.history))) && (
        <ColumnMatching preview={preview} chosen={page.matched} busy={page.matching} onMatch={page.match} />
      )}
      {result ? <ResultView result={result} /> : preview && <PreviewView preview={preview} importing={page.importing} onImport={() => page.ask("import")} />}
      <InvitationsSection page={page} />
      {page.asking === "import" && preview && (
        <ConfirmDialog
          title={
            text.one(preview.members.toImport)
              ? i18n._("Import {count} member with a balance of {total}?", {
                  count: text.count(preview.members.toImport),
                  total: text.money(preview.members.total),
                })
              : i18n._("Import {count} members with balances of {total}?", {
                  count: text.count(preview.members.toImport),
                  total: text.money(preview.members.total),
                })
          }
          confirm={i18n._("Import")}
          busy={page.importing}
          onConfirm={page.runImport}
          onClose={page.cancel}
        >
          <p>{i18n._("This writes them into Mutua at once.")}</p>
        </ConfirmDialog>
      )}
      {page.asking === "invite" && page.invitations.data && (
        <ConfirmDialog
          title={
            text.one(notInvited)
              ? i18n._("Send an invitation to {count} member?", { count: text.count(notInvited) })
              : i18n._("Send an invitation to {count} members?", { count: text.count(notInvited) })
          }
          confirm={inviteText(i18n, text, notInvited)}
          busy={page.inviting}
          onConfirm={page.invite}
          onClose={page.cancel}
        >
          <p>{i18n._("Each receives a link to choose their password, valid 14 days.")}</p>
        </ConfirmDialog>
      )}
    </main>
  );
}

/** The button that sends the invitations, and the confirmation's, named alike: "Invite 3 members". */
const inviteText = (i18n: I18n, text: ImportText, n: number) =>
  text.one(n) ? i18n._("Invite {count} member", { count: text.count(n) }) : i18n._("Invite {count} members", { count: text.count(n) });

/** A part of the screen: a card named by its heading. */
function Section({ id, title, children, busy }: { id: string; title: string; children: ReactNode; busy?: boolean }) {
  return (
    <section className={`card import-section import-section-${id}`} aria-labelledby={`import-${id}-title`} aria-busy={busy || undefined}>
      <h2 id={`import-${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

/** The two files and the button that uploads and checks them, with the upload's progress. */
function FilesForm({ page }: { page: ImportPageState }) {
  const { i18n } = useLingui();
  const [missing, setMissing] = useState(false);
  const fileField = (kind: ImportFileKind, label: string, required: boolean) => {
    const file = page.files[kind];
    const refusal = file ? tooLarge(kind, file.size) : null;
    const error = kind === "members" && missing && !file ? i18n._("Choose the members file.") : refusal ? tr(msg(refusal)) : undefined;
    return (
      <FileField
        id={`import-${kind}-file`}
        label={label}
        fileName={file?.name ?? null}
        accept={ACCEPT}
        required={required}
        error={error}
        onChange={(e) => {
          if (kind === "members") setMissing(false);
          page.choose(kind, e.target.files?.[0] ?? null);
        }}
      />
    );
  };
  return (
    <form
      className="card import-files"
      noValidate
      aria-label={i18n._("Files to import")}
      onSubmit={(e) => {
        e.preventDefault();
        if (!page.files.members) {
          setMissing(true);
          document.getElementById("import-members-file")?.focus();
          return;
        }
        page.check();
      }}
    >
      {fileField("members", i18n._("Members file"), true)}
      {fileField("history", i18n._("History file (optional)"), false)}
      {/* aria-disabled rather than disabled: the button keeps the focus while the files go up. */}
      <button type="submit" className="button primary import-check" aria-disabled={page.checking} aria-busy={page.checking}>
        {i18n._("Check the files")}
      </button>
      {page.progress ? <UploadProgressView progress={page.progress} /> : page.checking && <p role="status">{i18n._("Checking the files…")}</p>}
    </form>
  );
}

export function UploadProgressView({ progress }: { progress: UploadProgress }) {
  const { i18n } = useLingui();
  const id = useId();
  const percent = progress.total > 0 ? Math.floor((progress.sent * 100) / progress.total) : 0;
  return (
    <div className="import-progress">
      <span id={id}>{i18n._("Uploading the files: {percent}%", { percent })}</span>
      <progress aria-labelledby={id} value={progress.sent} max={Math.max(progress.total, 1)} />
    </div>
  );
}

/**
 * For a file none of the known formats reads (a spreadsheet of the association's own): a select
 * per field of Mutua's, listing the file's columns. Each choice reads the files again, and the
 * preview below follows; the server remembers the matching for the association's next file.
 */
export function ColumnMatching({
  preview,
  chosen,
  busy,
  onMatch,
}: {
  preview: ImportPreviewView;
  /** What the owner chose so far, ahead of the preview; null: what the preview reads. */
  chosen: ImportMapping | null;
  busy: boolean;
  onMatch: (kind: "members" | "history", field: ImportMemberField | ImportHistoryField, header: string | null) => void;
}) {
  const { i18n } = useLingui();
  const files: {
    kind: "members" | "history";
    title: string;
    headers: string[];
    columns: Partial<Record<string, string[]>>;
    fields: readonly (ImportMemberField | ImportHistoryField)[];
  }[] = [];
  if (isMatched(preview.members))
    files.push({
      kind: "members",
      title: i18n._("Members file"),
      headers: preview.members.headers,
      columns: preview.members.columns,
      fields: MATCHED_MEMBER_FIELDS,
    });
  if (preview.history && isMatched(preview.history))
    files.push({
      kind: "history",
      title: i18n._("History file"),
      headers: preview.history.headers,
      columns: preview.history.columns,
      fields: IMPORT_HISTORY_FIELDS,
    });
  return (
    <Section id="matching" title={i18n._("Match the columns")} busy={busy}>
      <p className="hint">
        {i18n._(
          "Choose the column of your file that holds each of Mutua's fields. The preview follows your choices, and your next file with these columns is read the same way.",
        )}
      </p>
      {files.map((f) => (
        <fieldset key={f.kind} className="import-matching">
          <legend>{f.title}</legend>
          {f.fields.map((field) => {
            const id = `import-match-${f.kind}-${field}`;
            return (
              <div className="field" key={field}>
                <label htmlFor={id}>{fieldText(i18n, field)}</label>
                <select
                  id={id}
                  value={(chosen ? (chosen[f.kind] as Partial<Record<string, string>> | undefined)?.[field] : f.columns[field]?.[0]) ?? ""}
                  onChange={(e) => onMatch(f.kind, field, e.target.value || null)}
                >
                  <option value="">{i18n._("Not in the file")}</option>
                  {f.headers
                    .filter((h) => h !== "")
                    .map((h) => (
                      <option key={h} value={h}>
                        {h}
                      </option>
                    ))}
                </select>
              </div>
            );
          })}
        </fieldset>
      ))}
    </Section>
  );
}

/** A label and its value, in a list of them. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

/**
 * What the server read in the files and what an import would do: the members to import, those
 * already here, the balances, what is left out, the history's span and the first rows; then the
 * problems that stop the import, or the button that runs it.
 */
export function PreviewView({ preview, importing, onImport }: { preview: ImportPreviewView; importing: boolean; onImport: () => void }) {
  const { i18n } = useLingui();
  const text = useImportText();
  const { members, history } = preview;
  const readingOf = (file: { encoding: string | null; delimiter: string | null }) =>
    file.delimiter
      ? i18n._("Read as {encoding}, values separated by {delimiter}", {
          encoding: file.encoding ? file.encoding.toUpperCase() : i18n._("plain text (ASCII)"),
          delimiter: delimiterText(i18n, file.delimiter),
        })
      : null;
  const reading = readingOf(members);
  const historyReading = history ? readingOf(history) : null;
  const withSymbol = (amount: string) => text.money(preview.backend ? `${amount} ${preview.backend.symbol}` : amount);
  const toImport = text.count(members.toImport);
  const symbol = preview.backend?.symbol;
  return (
    <Section id="preview" title={i18n._("What will be imported")}>
      <p className="import-headline">
        {text.one(members.toImport) ? i18n._("{count} member to import", { count: toImport }) : i18n._("{count} members to import", { count: toImport })}
      </p>
      <dl className="details">
        <Fact label={i18n._("Members file")}>
          {members.file}
          {reading && <span className="hint import-reading">{reading}</span>}
        </Fact>
        <Fact label={i18n._("Total of the closing balances")}>{text.money(members.total)}</Fact>
        <Fact label={i18n._("Imported before")}>{text.count(members.alreadyImported)}</Fact>
        {members.businesses + members.businessesKept > 0 && (
          <Fact label={i18n._("Businesses listed in the directory")}>
            {text.count(members.businesses)}
            {members.businessesKept > 0 && (
              <span className="hint">{i18n._("{count} already have a profile here: it stays as it is", { count: text.count(members.businessesKept) })}</span>
            )}
          </Fact>
        )}
        {members.unknownColumns.length > 0 && <Fact label={i18n._("Columns not imported")}>{members.unknownColumns.join(", ")}</Fact>}
        {members.ignoredRights.length > 0 && (
          <Fact label={i18n._("Rights")}>
            {i18n._("Not imported (column {columns}): grant them from the members' pages once the members are in.", {
              columns: members.ignoredRights.join(", "),
            })}
          </Fact>
        )}
        {history && (
          <>
            <Fact label={i18n._("History file")}>
              {history.file}
              {historyReading && <span className="hint import-reading">{historyReading}</span>}
            </Fact>
            <Fact label={i18n._("Movements")}>
              {text.one(history.lines)
                ? i18n._("{count} line", { count: text.count(history.lines) })
                : i18n._("{count} lines", { count: text.count(history.lines) })}
            </Fact>
            {history.first && history.last && (
              <Fact label={i18n._("Period")}>{i18n._("From {first} to {last}", { first: text.date(history.first), last: text.date(history.last) })}</Fact>
            )}
            <Fact label={i18n._("Money that came into the system")}>{withSymbol(history.cameIn)}</Fact>
            <Fact label={i18n._("Money that left the system")}>{withSymbol(history.wentOut)}</Fact>
            {history.unknownColumns.length > 0 && <Fact label={i18n._("History columns not imported")}>{history.unknownColumns.join(", ")}</Fact>}
          </>
        )}
      </dl>
      {members.existing.length > 0 && (
        <div className="import-existing">
          <h3>{i18n._("Already members (same e-mail): {count}", { count: text.count(members.existing.length) })}</h3>
          <p className="hint">{i18n._("Their balance and history go to their account.")}</p>
          {members.existing.some((m) => !m.emailVerified) && (
            <p className="hint">
              {i18n._(
                "An account whose address was never verified may have been opened by someone else with that address: its balance waits, and its member gets it by opening the invitation sent to that address.",
              )}
            </p>
          )}
          <ul>
            {members.existing.map((m) => (
              <li key={m.line}>
                {m.name} <span className="hint">{m.email}</span>{" "}
                <span className="import-account">
                  <span className="hint">{i18n._("member since {date}", { date: text.date(m.createdAt) })}</span>{" "}
                  {m.emailVerified ? (
                    <span className="import-verified">{i18n._("address verified")}</span>
                  ) : (
                    <strong className="import-unverified">{i18n._("address not verified: the balance waits for the invitation")}</strong>
                  )}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {members.sample.length > 0 && (
        <div className="import-sample">
          <h3>{i18n._("First lines of the members file")}</h3>
          <AdminTable columns={[i18n._("Line"), i18n._("Name"), i18n._("Email"), i18n._("Balance")]} actions={false}>
            {members.sample.map((row) => (
              <tr key={row.line}>
                <td>{text.count(row.line)}</td>
                <td>{row.name}</td>
                <td className="import-email">{row.email}</td>
                <td className="import-amount">{text.money(symbol ? `${row.balance} ${symbol}` : row.balance)}</td>
              </tr>
            ))}
          </AdminTable>
        </div>
      )}
      {preview.warnings.length > 0 && (
        <div className="notice info import-warnings" role="note">
          <p>
            <strong>{i18n._("Lines imported otherwise than written: {count}", { count: text.count(preview.warnings.length) })}</strong>
          </p>
          <ul>
            {preview.warnings.map((p, i) => (
              <li key={i}>{problemText(i18n, p)}</li>
            ))}
          </ul>
        </div>
      )}
      {hasProblems(preview) ? (
        <ProblemsView preview={preview} />
      ) : (
        <div className="import-run">
          {/* aria-disabled rather than disabled: the button keeps the focus the confirmation gives back while the import runs. */}
          <button type="button" className="button primary" aria-disabled={importing} aria-busy={importing} onClick={() => !importing && onImport()}>
            {importing ? i18n._("Importing…") : i18n._("Import")}
          </button>
          {importing && <p role="status">{i18n._("This may take a few minutes: keep this page open.")}</p>}
        </div>
      )}
    </Section>
  );
}

/** Every problem that stops the import, where to find it in the files; those left out counted. */
export function ProblemsView({ preview }: { preview: ImportPreviewView }) {
  const { i18n } = useLingui();
  const text = useImportText();
  const n = preview.problems.length + preview.problemsOmitted;
  return (
    <div className="notice error import-problems" role="alert">
      <p>
        <strong>
          {text.one(n)
            ? i18n._("{count} problem: nothing can be imported until it is fixed", { count: text.count(n) })
            : i18n._("{count} problems: nothing can be imported until they are fixed", { count: text.count(n) })}
        </strong>
      </p>
      <ul>
        {preview.problems.map((p, i) => (
          <li key={i}>{problemText(i18n, p)}</li>
        ))}
      </ul>
      {preview.problemsOmitted > 0 && <p>{i18n._("… and {count} more", { count: text.count(preview.problemsOmitted) })}</p>}
    </div>
  );
}

/** What the import wrote. */
export function ResultView({ result }: { result: ImportResult }) {
  const { i18n } = useLingui();
  const text = useImportText();
  const members = text.one(result.members)
    ? i18n._("{count} member", { count: text.count(result.members) })
    : i18n._("{count} members", { count: text.count(result.members) });
  const movements = text.one(result.movements)
    ? i18n._("{count} movement", { count: text.count(result.movements) })
    : i18n._("{count} movements", { count: text.count(result.movements) });
  return (
    <Section id="result" title={i18n._("Import done")}>
      <div className="notice info" role="status">
        <p>{i18n._("Imported {members} and {movements}.", { members, movements })}</p>
        {result.linked > 0 && (
          <p>
            {text.one(result.linked)
              ? i18n._("{count} member already here received their balance and history.", { count: text.count(result.linked) })
              : i18n._("{count} members already here received their balance and history.", { count: text.count(result.linked) })}
          </p>
        )}
        {result.held > 0 && (
          <p>
            {text.one(result.held)
              ? i18n._("{count} of them never verified their address: their balance waits until they open their invitation.", {
                  count: text.count(result.held),
                })
              : i18n._("{count} of them never verified their address: their balances wait until they open their invitation.", {
                  count: text.count(result.held),
                })}
          </p>
        )}
        {result.members + result.linked + result.movements === 0 && <p>{i18n._("Nothing new to import: everything in these files was imported before.")}</p>}
      </div>
    </Section>
  );
}

function InvitationsSection({ page }: { page: ImportPageState }) {
  const { i18n } = useLingui();
  const { data, isError, isPending } = page.invitations;
  let body: ReactNode;
  if (data) body = <InvitationsView invitations={data} busy={page.inviting} onInvite={() => page.ask("invite")} />;
  else if (isError)
    body = (
      <p className="notice error" role="alert">
        {i18n._("The invitations could not be loaded. Please refresh the page.")}
      </p>
    );
  else body = <Skeleton rows={3} className="import-skeleton" />;
  return (
    <Section id="invitations" title={i18n._("Invitations")} busy={isPending}>
      {body}
    </Section>
  );
}

/** Where the imported members' invitations stand, those that failed, and the button that sends the others. */
export function InvitationsView({ invitations: inv, busy, onInvite }: { invitations: Invitations; busy: boolean; onInvite: () => void }) {
  const { i18n } = useLingui();
  const text = useImportText();
  return (
    <>
      <dl className="details import-counts">
        <Fact label={i18n._("Not invited yet")}>{text.count(inv.notInvited)}</Fact>
        <Fact label={i18n._("Waiting")}>{text.count(inv.waiting)}</Fact>
        <Fact label={i18n._("Sent")}>{text.count(inv.sent)}</Fact>
        <Fact label={i18n._("Failed")}>{text.count(inv.failed)}</Fact>
        <Fact label={i18n._("Accepted")}>{text.count(inv.accepted)}</Fact>
      </dl>
      {inv.waiting > 0 && <p className="hint">{i18n._("Invitations are on their way: they leave a few every minute.")}</p>}
      {inv.failures.length > 0 && (
        <div className="import-failures">
          <h3>{i18n._("Invitations that could not be sent")}</h3>
          <ul>
            {inv.failures.map((f) => (
              <li key={f.email}>
                <strong>{f.name}</strong> <span className="import-email">{f.email}</span>: {f.error}
              </li>
            ))}
          </ul>
        </div>
      )}
      {inv.notInvited > 0 && (
        <button type="button" className="button primary import-invite" aria-disabled={busy} aria-busy={busy} onClick={() => !busy && onInvite()}>
          {inviteText(i18n, text, inv.notInvited)}
        </button>
      )}
    </>
  );
}
