import { M, type Msg } from "@mutua/domain";

/** A wallet file that cannot be used, with the message to show (docs/spec.md §5 "Import wallet file"). */
export class WalletFileError extends Error {
  constructor(readonly msg: Msg) {
    super(msg.id);
  }
}

/** Reads a chosen file as a wallet file: readable, then text, then JSON, then a keystore. */
export async function readWalletFile(file: Blob, isKeystore: (json: unknown) => boolean): Promise<Record<string, unknown>> {
  let bytes: ArrayBuffer;
  try {
    bytes = await file.arrayBuffer();
  } catch {
    throw new WalletFileError({ id: M.fileUnreadable });
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new WalletFileError({ id: M.fileNotText });
  }
  // NUL bytes decode as UTF-8 but no text file has them: an image or an archive does.
  if (text.includes("\u0000")) throw new WalletFileError({ id: M.fileNotText });
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    throw new WalletFileError({ id: M.fileNotJson });
  }
  if (!isKeystore(json)) throw new WalletFileError({ id: M.notAWalletFile });
  return json as Record<string, unknown>;
}

/** Spec: the exported file is named {currency}_{backend}_{address}.json. */
export function walletFileName(currency: string, backend: string, walletId: string): string {
  const address = walletId.slice(walletId.indexOf(":") + 1);
  return `${currency}_${backend}_${address}.json`.replace(/[^\w.-]/g, "_");
}
