import { describe, expect, it } from "vitest";
import { SM } from "@mutua/domain";
import type { Mail } from "../src/services/platform/mail";
import { Api, memberToken, seedMember, TEST_PASSWORD, type SeededMember } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * The owners hand out the rights from a member's page (setMemberRights): with their password
 * typed again, never their own, audited with before and after, e-mailed to the member, and in
 * force at once on the member's open sessions.
 */
const sent: Mail[] = [];
const t = setupServerTest({ server: { mailer: { send: async (m) => void sent.push(m) } } });

const NONE = { accounts: false, credits: false, board: false, owner: false };
const apiOf = async (m: SeededMember) => new Api(t.server.baseUrl, await memberToken(t.db, m.id));
const rightsRow = async (m: SeededMember) =>
  (
    await t.db.query(
      "SELECT can_validate_accounts AS accounts, can_validate_credits AS credits, can_view_figures AS board, can_manage_association AS owner FROM members WHERE id = $1",
      [m.id],
    )
  ).rows[0];
const auditOf = async (m: SeededMember) =>
  (await t.db.query("SELECT member_id, action, details FROM audit_log WHERE subject = $1 ORDER BY id", [`member:${m.id}`])).rows;
const FIGURES = { query: { from: "2026-01-01", to: "2026-12-31", interval: "month", tz: "Europe/Paris" } } as const;

describe("an owner sets a member's rights", () => {
  it("grants the board's right with their password: the member's open session reads the figures at once; audited and e-mailed", async () => {
    const owner = await seedMember(t.db, { canManageAssociation: true });
    const treasurer = await seedMember(t.db, { firstName: "Tess" });
    const tess = await apiOf(treasurer);
    expect((await tess.call("getFigures", FIGURES)).status).toBe(403);

    const r = await (
      await apiOf(owner)
    ).call("setMemberRights", {
      params: { memberId: Number(treasurer.id) },
      body: { rights: { ...NONE, board: true }, password: TEST_PASSWORD },
    });
    expect(r.status).toBe(200);
    expect(r.json.rights).toEqual({ ...NONE, board: true });
    expect(await rightsRow(treasurer)).toEqual({ ...NONE, board: true });
    expect((await tess.call("getFigures", FIGURES)).status).toBe(200);
    expect(await auditOf(treasurer)).toEqual([
      { member_id: owner.id, action: "member.rights_changed", details: { before: NONE, after: { ...NONE, board: true } } },
    ]);
    const mail = sent.find((m) => m.to === treasurer.email);
    expect(mail?.subject).toBe("Your rights in the association changed");
    expect(mail?.text).toContain("read the figures, the books and the ledger's health (board)");

    // Taken back: the next call is refused, and the e-mail says the member holds none.
    sent.length = 0;
    expect(
      (await (await apiOf(owner)).call("setMemberRights", { params: { memberId: Number(treasurer.id) }, body: { rights: NONE, password: TEST_PASSWORD } }))
        .status,
    ).toBe(200);
    expect((await tess.call("getFigures", FIGURES)).status).toBe(403);
    expect(sent.find((m) => m.to === treasurer.email)?.text).toContain("- none");
    expect(await auditOf(treasurer)).toHaveLength(2);
  });

  it("e-mails the change in the member's language: French for a French member, English for one who never said theirs", async () => {
    const owner = await apiOf(await seedMember(t.db, { canManageAssociation: true }));
    const lea = await seedMember(t.db, { firstName: "Léa" });
    await t.db.query("UPDATE members SET language = 'fr-FR' WHERE id = $1", [lea.id]);
    const tom = await seedMember(t.db, { firstName: "Tom" });
    const setRights = async (m: SeededMember, rights: typeof NONE) =>
      expect((await owner.call("setMemberRights", { params: { memberId: Number(m.id) }, body: { rights, password: TEST_PASSWORD } })).status).toBe(200);
    const lastTo = async (m: SeededMember) => {
      await expect.poll(() => sent.some((x) => x.to === m.email)).toBe(true);
      const mail = sent.filter((x) => x.to === m.email).at(-1)!;
      sent.length = 0;
      return { subject: mail.subject, text: mail.text };
    };

    await setRights(lea, { ...NONE, accounts: true, board: true });
    expect(await lastTo(lea)).toEqual({
      subject: "Vos droits dans l'association ont changé",
      text:
        "Bonjour Léa,\n\nUn propriétaire de l'association a changé vos droits. Vous pouvez désormais :\n" +
        "- approuver les portefeuilles et aider les membres (validation des comptes)\n" +
        "- consulter les chiffres, la comptabilité et la santé du grand livre (bureau)\n\n" +
        "Si cela vous surprend, répondez à cet e-mail ou contactez l'association.",
    });
    await setRights(lea, NONE);
    expect((await lastTo(lea)).text).toContain(
      "Vous pouvez désormais :\n- rien de particulier : vous utilisez le portefeuille de l'association comme tous les membres\n",
    );

    await setRights(tom, { ...NONE, credits: true, owner: true });
    expect(await lastTo(tom)).toEqual({
      subject: "Your rights in the association changed",
      text:
        "Hello Tom,\n\nAn owner of the association changed your rights. You can now:\n" +
        "- credit top-ups (credit validation)\n" +
        "- manage the association and its members' rights (owner)\n\n" +
        "If this surprises you, answer this e-mail or contact the association.",
    });
  });

  it("refuses a wrong password (403 reauth_failed), and changes, audits and e-mails nothing", async () => {
    const owner = await seedMember(t.db, { canManageAssociation: true });
    const member = await seedMember(t.db);
    sent.length = 0;
    const r = await (
      await apiOf(owner)
    ).call("setMemberRights", {
      params: { memberId: Number(member.id) },
      body: { rights: { ...NONE, owner: true }, password: "not the password" },
    });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe("reauth_failed");
    expect(await rightsRow(member)).toEqual(NONE);
    expect(await auditOf(member)).toEqual([]);
    expect(sent).toEqual([]);
  });

  it("refuses an owner's change of their own rights (403), even to give themselves more", async () => {
    const owner = await seedMember(t.db, { canManageAssociation: true });
    for (const rights of [NONE, { accounts: true, credits: true, board: true, owner: true }]) {
      const r = await (await apiOf(owner)).call("setMemberRights", { params: { memberId: Number(owner.id) }, body: { rights, password: TEST_PASSWORD } });
      expect(r.status).toBe(403);
      expect(r.json.error.msgid).toBe(SM.ownRights);
    }
    expect(await rightsRow(owner)).toEqual({ ...NONE, owner: true });
    expect(await auditOf(owner)).toEqual([]);
  });

  it("refuses every other member, administrators included (403), and a body with a right it does not know (400)", async () => {
    const admin = await seedMember(t.db, { canValidateAccounts: true, canValidateCredits: true, canViewFigures: true });
    const member = await seedMember(t.db);
    const r = await (
      await apiOf(admin)
    ).call("setMemberRights", { params: { memberId: Number(member.id) }, body: { rights: { ...NONE, owner: true }, password: TEST_PASSWORD } });
    expect(r.status).toBe(403);
    const owner = await seedMember(t.db, { canManageAssociation: true });
    const odd = await (
      await apiOf(owner)
    ).call("setMemberRights", {
      params: { memberId: Number(member.id) },
      body: { rights: { ...NONE, superuser: true } as typeof NONE, password: TEST_PASSWORD },
    });
    expect(odd.status).toBe(400);
    expect(await rightsRow(member)).toEqual(NONE);
  });

  it("of two owners taking the right from each other at the same moment, one succeeds and the association keeps an owner", async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = [await seedMember(t.db, { canManageAssociation: true }), await seedMember(t.db, { canManageAssociation: true })];
      const [apiA, apiB] = [await apiOf(a), await apiOf(b)];
      const answers = await Promise.all([
        apiA.call("setMemberRights", { params: { memberId: Number(b.id) }, body: { rights: NONE, password: TEST_PASSWORD } }),
        apiB.call("setMemberRights", { params: { memberId: Number(a.id) }, body: { rights: NONE, password: TEST_PASSWORD } }),
      ]);
      expect(answers.map((x) => x.status).sort()).toEqual([200, 403]);
      const owners = [(await rightsRow(a))!.owner, (await rightsRow(b))!.owner];
      expect(owners.filter(Boolean)).toHaveLength(1);
      // Put back out of the way of the next round: only these two are the owners there.
      await t.db.query("UPDATE members SET can_manage_association = false WHERE id = ANY($1::bigint[])", [[a.id, b.id]]);
    }
  });
});

describe("an owner without the account right", () => {
  it("finds members and reads who they are and their rights, not their money, movements or sign-ins; the account right's actions stay refused", async () => {
    const owner = await seedMember(t.db, { canManageAssociation: true, firstName: "Olga" });
    const member = await seedMember(t.db, { firstName: "Mathis" });
    const api = await apiOf(owner);
    const found = await api.call("searchMembers", { query: { q: "mathis" } });
    expect(found.status).toBe(200);
    expect(JSON.stringify(found.json)).toContain(member.email);
    const file = await api.call("getMemberFile", { params: { memberId: Number(member.id) } });
    expect(file.status).toBe(200);
    expect(file.json).toMatchObject({ email: member.email, rights: NONE, wallets: [], transactions: [], sessions: [], pins: [], deviceLogins: 0 });
    // An account administrator reads the whole page (the member signed in: one session).
    await memberToken(t.db, member.id);
    const admin = await apiOf(await seedMember(t.db, { canValidateAccounts: true }));
    expect((await admin.call("getMemberFile", { params: { memberId: Number(member.id) } })).json.sessions.length).toBeGreaterThan(0);
    expect((await api.call("signOutMember", { params: { memberId: Number(member.id) } })).status).toBe(403);
  });
});
