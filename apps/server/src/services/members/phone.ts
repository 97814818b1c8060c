import { normalizePhone, phoneProblem } from "@mutua/domain";
import { inTransaction, type Db } from "../../db/pool";
import { invalid, loginRequired } from "../platform/errors";
import { adminSearchText } from "./members";

/**
 * Sets the member's phone number as they typed it (trimmed), or clears it. Administrators find
 * members by their phone too: the search text follows.
 */
export async function setPhone(db: Db, me: bigint, raw: string | null): Promise<void> {
  const problem = raw === null ? null : phoneProblem(raw);
  if (problem) throw invalid({ phone: problem });
  const phone = raw === null ? null : normalizePhone(raw);
  await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ first_name: string; last_name: string; email: string }>(
      "SELECT first_name, last_name, email FROM members WHERE id = $1 FOR UPDATE",
      [me],
    );
    const m = rows[0];
    if (!m) throw loginRequired();
    await tx.query("UPDATE members SET phone = $2, search_text = $3 WHERE id = $1", [me, phone, adminSearchText(m.first_name, m.last_name, m.email, phone)]);
  });
}
