import fs from "node:fs";
import { once } from "node:events";

/**
 * An old system's export, made up: a members file and a history that adds up to it, as Mutua's
 * own format (services/import/presets.ts). Each member is topped up first; then members pay each
 * other (never more than the payer holds) and now and then one reconverts, over three years in
 * date order. A seeded generator, so the same arguments make the same files.
 */
export interface GeneratedImport {
  members: string;
  history: string;
  /** The sum of the closing balances, in cents. */
  total: bigint;
  lines: number;
}

/** `prefix` starts the members' external ids (and their e-mails), so that two files of one test database name different members. */
export async function generateImport(dir: string, memberCount: number, lineCount: number, seed = 1, prefix = "M"): Promise<GeneratedImport> {
  let state = seed >>> 0 || 1;
  // xorshift32: fast and repeatable; nothing here needs better.
  const random = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
  const balances: bigint[] = Array.from({ length: memberCount }, () => 0n);
  const start = Date.UTC(2022, 0, 3, 8);
  const span = 3 * 365 * 24 * 3600 * 1000;
  const history = fs.createWriteStream(`${dir}/history.csv`);
  const put = async (line: string) => {
    if (!history.write(line)) await once(history, "drain");
  };
  await put("date,from,to,amount,memo,reference\n");
  // The old system's transaction numbers: its own, unlike another generated file's.
  const ref = (i: number) => `G${seed}-${i}`;
  const stamp = (i: number) => new Date(start + Math.floor((span * i) / lineCount)).toISOString();
  const cents = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, "0")}`;
  let written = 0;
  // The first lines: a top-up for each member (as many as there are lines for).
  for (let m = 0; m < memberCount && written < lineCount; m++, written++) {
    const amount = BigInt(2000 + Math.floor(random() * 20000));
    balances[m] = amount;
    await put(`${stamp(written)},,${prefix}${m},${cents(amount)},Change,${ref(written)}\n`);
  }
  while (written < lineCount) {
    const from = Math.floor(random() * memberCount);
    const r = random();
    if (r < 0.03) {
      const amount = BigInt(1000 + Math.floor(random() * 5000));
      balances[from] = balances[from]! + amount;
      await put(`${stamp(written)},,${prefix}${from},${cents(amount)},Change,${ref(written)}\n`);
    } else if (r < 0.05 && balances[from]! > 100n) {
      const amount = balances[from]! / 2n;
      balances[from] = balances[from]! - amount;
      await put(`${stamp(written)},${prefix}${from},,${cents(amount)},Reconversion,${ref(written)}\n`);
    } else {
      const to = (from + 1 + Math.floor(random() * (memberCount - 1))) % memberCount;
      const amount = BigInt(Math.min(Number(balances[from]!), 50 + Math.floor(random() * 3000)));
      if (amount <= 0n || to === from) continue;
      balances[from] = balances[from]! - amount;
      balances[to] = balances[to]! + amount;
      await put(`${stamp(written)},${prefix}${from},${prefix}${to},${cents(amount)},"Market, stall ${written % 97}",${ref(written)}\n`);
    }
    written++;
  }
  history.end();
  await once(history, "finish");

  const members = fs.createWriteStream(`${dir}/members.csv`);
  const putMember = async (line: string) => {
    if (!members.write(line)) await once(members, "drain");
  };
  await putMember("external_id,first_name,last_name,email,language,balance\n");
  let total = 0n;
  for (let m = 0; m < memberCount; m++) {
    total += balances[m]!;
    await putMember(
      `${prefix}${m},Member,Number ${m},${prefix === "M" ? "" : `${prefix.toLowerCase()}.`}member${m}@import.example,${m % 3 === 0 ? "en" : "fr"},${cents(balances[m]!)}\n`,
    );
  }
  members.end();
  await once(members, "finish");
  return { members: `${dir}/members.csv`, history: `${dir}/history.csv`, total, lines: written };
}
