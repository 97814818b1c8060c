import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RefusedError, admin } from "@mutua/client";
import type { BodyOf, Invitations } from "@mutua/domain";
import { useClient } from "../../lib/context";
import { adminKeys } from "../association";

/** Moving in from another system, under the administration's keys (one factory). */
export const importKeys = {
  all: [...adminKeys.all, "import"] as const,
  invitations: () => [...importKeys.all, "invitations"] as const,
};

/** The uploaded files an import is checked and run on. */
export interface ImportUploads {
  members: string;
  history: string | null;
}

/** The columns the owner matched to Mutua's fields, per file; null: the presets, or the association's last matching. */
export type ImportMapping = NonNullable<BodyOf<"previewImport">["mapping"]>;

/** What a preview or an import is asked on: the files, and the columns matched if any. */
export type ImportRequest = ImportUploads & { mapping: ImportMapping | null };

/** How often the invitations are asked again while some are waiting to leave. */
export const INVITATIONS_POLL_MS = 10_000;

/** A refusal is the answer (the right is missing): asking again changes nothing. */
const retryUnlessRefused = (failures: number, error: Error) => !(error instanceof RefusedError) && failures < 3;

/** Where the invitations of the imported members stand; asked again every 10 s while some wait to leave. */
export function useInvitations() {
  const client = useClient();
  return useQuery({
    queryKey: importKeys.invitations(),
    queryFn: () => admin.call(client, "getInvitations"),
    refetchInterval: (q) => ((q.state.data?.waiting ?? 0) > 0 ? INVITATIONS_POLL_MS : false),
    retry: retryUnlessRefused,
  });
}

/**
 * The import's actions: a part of a file sent, the files checked, the import run, the
 * invitations sent. An import changes the members' lists and who is left to invite: the
 * administration's queries are asked again.
 */
export function useImportActions() {
  const client = useClient();
  const qc = useQueryClient();
  const uploadPart = (body: BodyOf<"uploadImportFile">) => admin.call(client, "uploadImportFile", { body });
  const preview = useMutation({
    mutationFn: (body: ImportRequest) => admin.call(client, "previewImport", { body }),
  });
  const run = useMutation({
    mutationFn: (body: ImportRequest) => admin.call(client, "runImport", { body }),
    onSuccess: (r) => (r.imported ? qc.invalidateQueries({ queryKey: adminKeys.all }) : undefined),
  });
  const invite = useMutation({
    mutationFn: () => admin.call(client, "sendInvitations"),
    onSuccess: (counts: Invitations) => qc.setQueryData(importKeys.invitations(), counts),
  });
  return { uploadPart, preview, run, invite };
}
