import { useRef, useState } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError, RequestFailedError } from "@mutua/client";
import { msg, type ImportHistoryField, type ImportMemberField, type ImportPreviewView, type ImportResult } from "@mutua/domain";
import { toast } from "../../lib/toast";
import { useImportActions, useInvitations, type ImportMapping, type ImportRequest, type ImportUploads } from "./queries";
import { tooLarge, uploadFile, type ImportFileKind } from "./upload";

/** The files chosen, by kind. */
export type ImportFiles = Record<ImportFileKind, File | null>;

/** How far the upload is: bytes gone up of all the files' bytes. */
export interface UploadProgress {
  sent: number;
  total: number;
}

/** Whether a preview lets the import go: no problem at all, shown or left out. */
export const hasProblems = (p: ImportPreviewView): boolean => p.problems.length + p.problemsOmitted > 0;

/** Whether the owner matches a file's columns: none of the known formats reads it, or it is read with a matching already. */
export const isMatched = (file: { preset: string | null; headers: string[] }): boolean =>
  file.headers.length > 0 && (file.preset === null || file.preset === "custom");

/** The columns a preview reads each field from, as a matching (the first column of each). */
const matchingOf = (columns: Partial<Record<string, string[]>>): Record<string, string> =>
  Object.fromEntries(Object.entries(columns).flatMap(([field, headers]) => (headers?.[0] ? [[field, headers[0]]] : [])));

/** The matching in effect in a preview; files read by a known format are left to it. */
export function matchingIn(preview: ImportPreviewView): ImportMapping {
  const mapping: ImportMapping = {};
  if (isMatched(preview.members)) mapping.members = matchingOf(preview.members.columns);
  if (preview.history && isMatched(preview.history)) mapping.history = matchingOf(preview.history.columns);
  return mapping;
}

/** A matching with one field's column changed (null: none). */
export function rematch(
  mapping: ImportMapping,
  kind: "members" | "history",
  field: ImportMemberField | ImportHistoryField,
  header: string | null,
): ImportMapping {
  const fields: Record<string, string> = { ...mapping[kind] };
  if (header) fields[field] = header;
  else delete fields[field];
  return { ...mapping, [kind]: fields };
}

/**
 * The state of the import screen apart from how it is drawn: the files chosen, their upload
 * (members first, a part at a time, with its progress), what the server read in them, the
 * confirmation and the run of the import, and the invitations of the imported members.
 * Choosing another file forgets what was read: an import runs only on the files checked.
 */
export function useImportPage() {
  const { i18n } = useLingui();
  const actions = useImportActions();
  const invitations = useInvitations();
  const [files, setFiles] = useState<ImportFiles>({ members: null, history: null });
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [checked, setChecked] = useState<{ request: ImportRequest; preview: ImportPreviewView } | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [asking, setAsking] = useState<"import" | "invite" | null>(null);
  /** The columns the owner matched so far, ahead of the preview that follows them; null until they match one. */
  const [matching, setMatching] = useState<ImportMapping | null>(null);
  // The same, at once (a second choice comes before the screen draws the first), and whether the files are being read again.
  const chosen = useRef<ImportMapping | null>(null);
  const reading = useRef<{ busy: boolean; next: ImportRequest | null }>({ busy: false, next: null });

  const checking = progress !== null || actions.preview.isPending;

  const choose = (kind: ImportFileKind, file: File | null) => {
    setFiles((f) => ({ ...f, [kind]: file }));
    setChecked(null);
    setResult(null);
    setMatching(null);
    chosen.current = null;
  };

  const failed = (e: unknown, otherwise: string) => toast.error(e instanceof RefusedError ? e.msg : otherwise);

  /** Uploads the members' file, then the history's if any, then asks what an import would do. */
  const check = async () => {
    const { members, history } = files;
    if (checking || !members) return;
    const refusal = tooLarge("members", members.size) ?? (history ? tooLarge("history", history.size) : null);
    if (refusal) return toast.error(msg(refusal));
    setChecked(null);
    setResult(null);
    setMatching(null);
    chosen.current = null;
    const total = members.size + (history?.size ?? 0);
    let sent = 0;
    const gone = (bytes: number) => {
      sent += bytes;
      setProgress({ sent, total });
    };
    setProgress({ sent, total });
    let uploads: ImportUploads;
    try {
      const membersId = await uploadFile(members, "members", actions.uploadPart, gone);
      uploads = { members: membersId, history: history ? await uploadFile(history, "history", actions.uploadPart, gone) : null };
    } catch (e) {
      return failed(e, i18n._("The files could not be uploaded. Please try again."));
    } finally {
      setProgress(null);
    }
    const request = { ...uploads, mapping: null };
    actions.preview.mutate(request, {
      onSuccess: (preview) => setChecked({ request, preview }),
      onError: (e) => failed(e, i18n._("The files could not be checked. Please try again.")),
    });
  };

  /**
   * The files read again with one field matched to another column: the preview follows the
   * owner's choice. Choices add up (each on the last one), and the files are read once at a time
   * (the server takes one preview at a time): a choice made meanwhile waits, only the latest.
   */
  const readWith = (request: ImportRequest) => {
    if (reading.current.busy) {
      reading.current.next = request;
      return;
    }
    reading.current.busy = true;
    actions.preview.mutate(request, {
      onSuccess: (preview) => {
        if (!reading.current.next) setChecked({ request, preview });
      },
      onError: (e) => failed(e, i18n._("The files could not be checked. Please try again.")),
      onSettled: () => {
        const next = reading.current.next;
        reading.current = { busy: false, next: null };
        if (next) readWith(next);
      },
    });
  };
  const match = (kind: "members" | "history", field: ImportMemberField | ImportHistoryField, header: string | null) => {
    if (!checked) return;
    const mapping = rematch(chosen.current ?? matchingIn(checked.preview), kind, field, header);
    chosen.current = mapping;
    setMatching(mapping);
    readWith({ ...checked.request, mapping });
  };

  /** Runs the import confirmed, on the files checked: a refusal of the files shows their problems instead. */
  const runImport = () => {
    if (!checked || actions.run.isPending) return;
    const { request } = checked;
    setAsking(null);
    actions.run.mutate(request, {
      onSuccess: (r) => {
        if (r.imported) setResult(r);
        else setChecked({ request, preview: r.preview });
      },
      onError: (e) =>
        failed(
          e,
          e instanceof RequestFailedError
            ? i18n._("No answer came about the import: the server may still be working on it. Check the files again in a few minutes to see what was imported.")
            : i18n._("The import failed. Please try again."),
        ),
    });
  };

  const invite = () => {
    setAsking(null);
    actions.invite.mutate(undefined, {
      onSuccess: () => toast.success(i18n._("Invitations are on their way: they leave a few every minute.")),
      onError: (e) => failed(e, i18n._("The invitations could not be sent. Please try again.")),
    });
  };

  return {
    files,
    choose,
    check: () => void check(),
    checking,
    match,
    /** The owner's matching as they chose it, which the selects show while the preview catches up. */
    matched: matching,
    matching: actions.preview.isPending && checked !== null,
    progress,
    preview: checked?.preview ?? null,
    result,
    importing: actions.run.isPending,
    asking,
    ask: (what: "import" | "invite") => setAsking(what),
    cancel: () => setAsking(null),
    runImport,
    invitations,
    invite,
    inviting: actions.invite.isPending,
  };
}

export type ImportPageState = ReturnType<typeof useImportPage>;
