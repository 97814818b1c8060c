import { ErrorCode, SM, type MemberFile } from "@mutua/domain";
import { inTransaction, type Db } from "../../db/pool";
import type { Settings } from "../../settings";
import { audit } from "../platform/audit";
import { sendBestEffort, type Mailer } from "../platform/mail";
import { writingLanguage } from "../platform/language";
import { accountMail } from "./account-mails";
import { forbidden, notFound, Refusal } from "../platform/errors";
import { checkPasswordAgain } from "./credentials";
import { memberFile } from "./member-file";
import type { MemberRow } from "./members";

/** A member's rights as the owners set them (the domain's MemberRightsBody). */
export interface MemberRights {
  accounts: boolean;
  credits: boolean;
  board: boolean;
  owner: boolean;
}

const rightsOf = (m: MemberRow): MemberRights => ({
  accounts: m.can_validate_accounts,
  credits: m.can_validate_credits,
  board: m.can_view_figures,
  owner: m.can_manage_association,
});

/**
 * An owner sets another member's rights, all four at once, having typed their own password again
 * (checked like a login attempt). The association always keeps an owner: nobody changes their own
 * rights, so whoever takes the right from an owner is another one; and the owners' rows are
 * locked first, so of two owners taking it from each other at the same moment the second finds
 * they no longer hold it. The change is audited with before and after, and e-mailed to the member
 * once committed, in the member's language (`defaultLanguage`, the association's, when they never
 * said theirs). Rights are read afresh by every request: it applies to the member's open sessions
 * at once.
 */
export async function setMemberRights(
  db: Db,
  s: Settings,
  mailer: Mailer,
  owner: bigint,
  ip: string,
  memberId: bigint,
  rights: MemberRights,
  password: string,
  defaultLanguage: string,
): Promise<MemberFile> {
  if (owner === memberId) throw new Refusal(ErrorCode.forbidden, { id: SM.ownRights });
  await checkPasswordAgain(db, s, owner, ip, password);
  const change = await inTransaction(db, async (tx) => {
    const { rows: owners } = await tx.query<{ id: bigint }>("SELECT id FROM members WHERE can_manage_association ORDER BY id FOR UPDATE");
    // The caller's right, read again under the lock: another owner may have just taken it away.
    if (!owners.some((o) => o.id === owner)) throw forbidden();
    const { rows } = await tx.query<MemberRow>("SELECT * FROM members WHERE id = $1 FOR UPDATE", [memberId]);
    const member = rows[0];
    if (!member) throw notFound();
    const before = rightsOf(member);
    const same = (Object.keys(before) as (keyof MemberRights)[]).every((k) => before[k] === rights[k]);
    if (same) return null;
    await tx.query(
      `UPDATE members SET can_validate_accounts = $2, can_validate_credits = $3, can_view_figures = $4, can_manage_association = $5 WHERE id = $1`,
      [memberId, rights.accounts, rights.credits, rights.board, rights.owner],
    );
    await audit(tx, owner, "member.rights_changed", `member:${memberId}`, { before, after: rights });
    return { member, before };
  });
  if (change) {
    const held = (["accounts", "credits", "board", "owner"] as const).filter((k) => rights[k]);
    const m = change.member;
    void sendBestEffort(mailer, accountMail(writingLanguage(m.language, defaultLanguage), m.email, m.first_name, { kind: "rightsChanged", held }));
  }
  return memberFile(db, memberId);
}
