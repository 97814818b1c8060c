import type { FastifyInstance } from "fastify";
import { formatCents, type BodyOf, type ImportPreviewView } from "@mutua/domain";
import type { AppDeps } from "../deps";
import { operation } from "../http/contract";
import { inviteImportedMembers, invitationCounts } from "../services/members/invitations";
import type { ImportPreview, PreviewOptions } from "../services/import/preview";
import { previewImport } from "../services/import/preview";
import { fullName } from "../services/import/members-file";
import { problemCode, type FileProblem } from "../services/import/problems";
import { uploadedFile, saveUploadPart } from "../services/import/uploads";
import { rememberedMapping, rememberMapping } from "../services/import/mappings";
import { runImport } from "../services/import/write";

/** The owners' import in the console: the same service as `npm run import`, on files uploaded to the database. */
export function importRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, settings } = deps;
  // The columns the owner matched are remembered for the next files; without, the last ones are offered.
  const files = async (by: bigint, body: BodyOf<"previewImport">): Promise<PreviewOptions> => {
    if (body.mapping) await rememberMapping(db, by, body.mapping);
    return {
      members: await uploadedFile(db, by, body.members, "members"),
      ...(body.history ? { history: await uploadedFile(db, by, body.history, "history") } : {}),
      ...(body.backendId ? { backendId: body.backendId } : {}),
      ...(body.mapping ? { mapping: body.mapping } : { remembered: await rememberedMapping(db) }),
    };
  };
  operation(app, deps, "uploadImportFile", async ({ memberId, body }) => saveUploadPart(db, memberId, body));
  // The owner's own line is refused (by); a second preview or import while one runs is refused with a 409.
  operation(app, deps, "previewImport", async ({ memberId, body }) => previewView(await previewImport(db, { ...(await files(memberId, body)), by: memberId })));
  operation(app, deps, "runImport", async ({ memberId, body }) => {
    const out = await runImport(db, { ...(await files(memberId, body)), by: memberId, defaultLanguage: deps.defaultLanguage });
    if (out.kind === "refused")
      return {
        imported: false,
        preview: previewView({ ...out.preview, problems: out.problems, problemsOmitted: out.problemsOmitted }),
        members: 0,
        linked: 0,
        held: 0,
        alreadyImported: 0,
        businesses: 0,
        movements: 0,
        skippedLines: 0,
        total: "0.00",
      };
    const { kind: _kind, importId: _id, preview, ...counts } = out;
    return { imported: true, preview: previewView(preview), ...counts };
  });
  operation(app, deps, "getInvitations", async () => invitationCounts(db));
  operation(app, deps, "sendInvitations", async ({ memberId }) => {
    await inviteImportedMembers(db, memberId, settings.invitationsPerMinute);
    return invitationCounts(db);
  });
}

/** The preview as the contract says it: amounts as strings, the sample's members by name, each problem with its code. */
function previewView(p: ImportPreview): ImportPreviewView {
  const coded = (x: FileProblem) => ({ ...x, ...problemCode(x) });
  return {
    ...p,
    problems: p.problems.map(coded),
    warnings: p.warnings.map(coded),
    members: {
      ...p.members,
      sample: p.members.sample.map((m) => ({
        line: m.line,
        externalId: m.externalId,
        name: fullName(m),
        email: m.email,
        balance: formatCents(m.balance),
      })),
    },
  };
}
