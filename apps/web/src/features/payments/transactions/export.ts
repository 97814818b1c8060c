import { csvFileName, transactionsCsv, type TransactionView } from "@mutua/domain";
import type { MutuaClient } from "@mutua/client";
import type { TransactionFilter } from "../../../data/transactions";
import type { Range } from "./period";
import { deliverFile } from "../../../lib/deliver-file";

/** Every transaction matching the filter, fetched page by page from the server (never filtered here). */
export async function fetchAll(client: MutuaClient, walletId: string, filter: TransactionFilter): Promise<TransactionView[]> {
  const all: TransactionView[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.call("getTransactions", { params: { walletId }, query: { ...filter, limit: 100, ...(cursor ? { cursor } : {}) } });
    all.push(...page.items);
    cursor = page.next ?? undefined;
  } while (cursor);
  return all;
}

export function buildCsv(me: string, txs: TransactionView[], headers: Parameters<typeof transactionsCsv>[2], range: Range | null) {
  const text = transactionsCsv(
    me,
    txs.map((t) => ({ amount: t.amount, related: t.related, date: new Date(t.date), description: t.description })),
    headers,
  );
  return { text, fileName: csvFileName(range) };
}

export const deliverCsv = (text: string, fileName: string) => deliverFile(text, fileName, "text/csv");
