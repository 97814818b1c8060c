import { ErrorCode, SM } from "@mutua/domain";
import type { Db, Tx } from "../../db/pool";
import { Refusal } from "../platform/errors";

/**
 * One preview or import at a time for the association, whichever instance or command runs it: a
 * preview reads every member against the database and an import writes them, each for minutes
 * with a large file, and two at once would only share the machine, and the second would find the
 * first's members anyway. The turn is a PostgreSQL advisory lock held by one connection for the
 * whole run, so it lives in the database, not in a process: a process that dies loses its
 * connection, and with it the turn.
 */
const IMPORT_LOCK = 0x6d_69_6d_70; // "mimp"

/**
 * Runs `fn` on a connection of its own holding the association's import turn. `wait`: for the
 * turn (the command line, whose operator may have just killed an import whose connection the
 * database has not dropped yet); otherwise refused at once with a 409 (the console).
 */
export async function inImportTurn<T>(db: Db, wait: boolean, fn: (client: Tx) => Promise<T>): Promise<T> {
  const client = await db.connect();
  let broken: Error | undefined;
  try {
    if (wait) await client.query("SELECT pg_advisory_lock($1)", [IMPORT_LOCK]);
    else {
      const { rows } = await client.query<{ got: boolean }>("SELECT pg_try_advisory_lock($1) AS got", [IMPORT_LOCK]);
      if (!rows[0]!.got) throw new Refusal(ErrorCode.stateConflict, { id: SM.importRunning });
    }
    try {
      return await fn(client);
    } finally {
      // A connection that cannot give the turn back is destroyed, which gives it back.
      await client.query("SELECT pg_advisory_unlock($1)", [IMPORT_LOCK]).catch((e: unknown) => void (broken = e as Error));
    }
  } finally {
    client.release(broken);
  }
}

/** Runs `fn` in one transaction on `client`: committed if it returns, rolled back if it throws. */
export async function transactionOn<T>(client: Tx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  let out: T;
  try {
    out = await fn(client);
  } catch (e) {
    await client.query("ROLLBACK");
    throw e;
  }
  await client.query("COMMIT");
  return out;
}
