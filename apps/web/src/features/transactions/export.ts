import { csvFileName, transactionsCsv, type TransactionView } from "@mutua/domain";
import type { MutuaClient } from "@mutua/client";
import type { TransactionFilter } from "./queries";
import type { Range } from "./period";

/** Every transaction matching the filter, fetched page by page from the server (never filtered here). */
export async function fetchAll(client: MutuaClient, walletId: string, filter: TransactionFilter): Promise<TransactionView[]> {
  const all: TransactionView[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.getTransactions(walletId, { ...filter, limit: 100, ...(cursor ? { cursor } : {}) });
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

/** A download on the web; the share sheet where a browser can share files but not download them. */
export async function deliverCsv(text: string, fileName: string): Promise<"downloaded" | "shared"> {
  const file = new File([text], fileName, { type: "text/csv" });
  const canDownload = "download" in HTMLAnchorElement.prototype && !/Android|iPhone|iPad/i.test(navigator.userAgent);
  if (!canDownload && typeof navigator.canShare === "function" && navigator.canShare({ files: [file] })) {
    await navigator.share({ files: [file], title: fileName });
    return "shared";
  }
  const url = URL.createObjectURL(file);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return "downloaded";
}
