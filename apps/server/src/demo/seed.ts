import type { Db } from "../db/pool";
import { createMember, findMemberByEmail } from "../services/members";
import { hashPassword } from "../services/passwords";

export const DEMO_PASSWORD = "Demo1234!";

export const DEMO_MEMBERS = [
  { email: "alice@example.com", firstName: "Alice", lastName: "Martin", role: "member" },
  { email: "bob@example.com", firstName: "Bob", lastName: "Durand", role: "member" },
  { email: "carol@example.com", firstName: "Carol", lastName: "Petit", role: "member" },
  { email: "admin@example.com", firstName: "Ada", lastName: "Admin", role: "both validation rights", accounts: true, credits: true },
  { email: "accounts@example.com", firstName: "Axel", lastName: "Accounts", role: "account validation", accounts: true },
  { email: "credits@example.com", firstName: "Cleo", lastName: "Credits", role: "credit validation", credits: true },
] as const;

/** The demo association. Idempotent: running it again changes nothing. */
export async function seedDemo(db: Db): Promise<void> {
  await db.query("INSERT INTO currencies (id, name, symbol) VALUES ('demo-lokal', 'Demo Lokal', 'DL') ON CONFLICT (id) DO NOTHING");
  await db.query(
    `INSERT INTO backends (id, kind, name, currency_id) VALUES
       ('ledger:demo-lokal', 'ledger', 'demo-lokal', 'demo-lokal'),
       ('custodial:demo-lokal', 'custodial', 'demo-lokal', 'demo-lokal')
     ON CONFLICT (id) DO NOTHING`,
  );
  for (const m of DEMO_MEMBERS) {
    if (await findMemberByEmail(db, m.email)) continue;
    await createMember(db, {
      email: m.email,
      firstName: m.firstName,
      lastName: m.lastName,
      passwordHash: await hashPassword(DEMO_PASSWORD),
      canValidateAccounts: "accounts" in m && m.accounts,
      canValidateCredits: "credits" in m && m.credits,
    }).catch((e: { code?: string }) => {
      if (e.code !== "email_taken") throw e; // another instance seeded it meanwhile
    });
  }
}
