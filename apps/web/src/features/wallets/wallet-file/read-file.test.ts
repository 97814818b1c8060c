import { describe, expect, it } from "vitest";
import { M } from "@mutua/domain";
import { readWalletFile, walletFileName, WalletFileError } from "./read-file";

const isKeystore = (j: unknown) => typeof j === "object" && j !== null && "crypto" in j;

async function messageOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "no error";
  } catch (e) {
    return e instanceof WalletFileError ? e.msg.id : String(e);
  }
}

describe("wallet files", () => {
  it("gives each spec message in order: unreadable, not text, not JSON, then not a wallet", async () => {
    const unreadable = { arrayBuffer: () => Promise.reject(new Error("gone")) } as unknown as Blob;
    expect(await messageOf(readWalletFile(unreadable, isKeystore))).toBe(M.fileUnreadable);
    expect(await messageOf(readWalletFile(new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe])]), isKeystore))).toBe(M.fileNotText);
    expect(await messageOf(readWalletFile(new Blob(["ab\u0000cd"]), isKeystore))).toBe(M.fileNotText);
    expect(await messageOf(readWalletFile(new Blob(["{not json"]), isKeystore))).toBe(M.fileNotJson);
    expect(await messageOf(readWalletFile(new Blob(['{"hello": 1}']), isKeystore))).toBe(M.notAWalletFile);
    expect(await readWalletFile(new Blob(['\uFEFF{"crypto": {}}']), isKeystore)).toEqual({ crypto: {} });
  });

  it("names exports {currency}_{backend}_{address}.json", () => {
    expect(walletFileName("DL", "ledger", "ledger:00ab")).toBe("DL_ledger_00ab.json");
    expect(walletFileName("D/L", "ledger", "ledger:00ab")).toBe("D_L_ledger_00ab.json");
  });
});
