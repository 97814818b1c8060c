import type { NameHint } from "@mutua/domain";

/**
 * Telling apart members whose names look alike: "Alice Martin", "alice  MARTIN" and "Alice
 * Martín" have one name_key (searchKey folds case, accents, compatibility forms, spaces and the
 * characters drawn as nothing), so where a member picks or sees another (the directory, a till's
 * payer, a payment e-mail) each such name comes with when its member joined.
 *
 * Why that: it tells two members apart without saying anything the directory keeps to itself, no
 * part of an e-mail address or a phone number (which the directory finds only when given in full,
 * so that nobody can spell them out), and an impersonator cannot choose it: the member imitated
 * has usually been there longer. The month is enough, and says little of anybody; the day is given
 * only when another member of that name joined the same month.
 *
 * Counted among the members whose wallet is active or locked, those whose name shows as somebody's
 * payee or payer; the count is an index lookup on name_key (migration 0023).
 */
export function memberSinceSql(m: string): string {
  return `(SELECT CASE WHEN bool_or(date_trunc('month', t.created_at AT TIME ZONE 'UTC') = date_trunc('month', ${m}.created_at AT TIME ZONE 'UTC'))
                       THEN to_char(${m}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')
                       ELSE to_char(${m}.created_at AT TIME ZONE 'UTC', 'YYYY-MM') END
             FROM members t
            WHERE t.name_key = ${m}.name_key AND t.id <> ${m}.id
              AND EXISTS (SELECT 1 FROM wallets tw WHERE tw.member_id = t.id AND tw.status IN ('active', 'locked'))
           HAVING count(*) > 0)`;
}

/** The hint of memberSinceSql's answer: none for a name nobody else's looks like. */
export const nameHint = (memberSince: string | null): NameHint | undefined => (memberSince ? { memberSince } : undefined);
