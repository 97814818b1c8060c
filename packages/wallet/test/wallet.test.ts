import { describe, expect, it } from "vitest";
import { addressOf, decryptKeystore, encryptKeystore, newPrivateKey, recoverSigner, signMessage, fromHex, WrongPasswordError } from "../src";

// The test vector of the Web3 Secret Storage definition (scrypt variant, password "testpassword").
const VECTOR = {
  crypto: {
    cipher: "aes-128-ctr",
    cipherparams: { iv: "83dbcc02d8ccb40e466191a123791e0e" },
    ciphertext: "d172bf743a674da9cdad04534d56926ef8358534d458fffccd4e6ad2fbde479c",
    kdf: "scrypt",
    kdfparams: { dklen: 32, n: 262144, p: 8, r: 1, salt: "ab0c7876052600dd703518d6fc3fe8984592145b591fc8fb5c6d43190334ba19" },
    mac: "2103ac29920d71da29f15d75b4a16dbe95cfd7ff8faea1056c33131d846e3097",
  },
  id: "3198bc9c-6672-5ab3-d995-4942343ae5b6",
  version: 3,
  address: "008aeeda4d805471df9b2a5b0f38a0c3bcba786b",
};

describe("keystore v3", () => {
  it("opens the standard test vector", async () => {
    const key = await decryptKeystore(VECTOR, "testpassword");
    expect(Buffer.from(key).toString("hex")).toBe("7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d");
  }, 60_000);

  it("round-trips a new wallet (also Comchain's N=1024) and refuses a wrong password", async () => {
    const key = newPrivateKey();
    for (const n of [1024, 16384]) {
      const ks = await encryptKeystore(key, "Wallet-pass-1", { n });
      expect(ks.address).toBe(addressOf(key));
      expect(await decryptKeystore(JSON.parse(JSON.stringify(ks)), "Wallet-pass-1")).toEqual(key);
      await expect(decryptKeystore(ks, "wallet-pass-1")).rejects.toBeInstanceOf(WrongPasswordError);
    }
  }, 60_000);

  it("reads upper-case keys and a 0x address, as Comchain's loader does", async () => {
    const key = newPrivateKey();
    const ks = await encryptKeystore(key, "pw", { n: 1024 });
    const shouty = { Version: 3, Address: `0x${ks.address}`, Crypto: ks.crypto, id: ks.id };
    expect(await decryptKeystore(shouty, "pw")).toEqual(key);
  });
});

describe("signatures", () => {
  it("recovers the signer and nobody else", () => {
    const key = newPrivateKey();
    const other = newPrivateKey();
    const sig = signMessage(key, "pay 12.00 to bob");
    expect(recoverSigner("pay 12.00 to bob", sig)).toBe(addressOf(key));
    expect(recoverSigner("pay 13.00 to bob", sig)).not.toBe(addressOf(key));
    expect(recoverSigner("pay 12.00 to bob", signMessage(other, "pay 12.00 to bob"))).not.toBe(addressOf(key));
    expect(recoverSigner("x", "zz")).toBeNull();
    expect(recoverSigner("x", "00".repeat(65))).toBeNull();
  });

  it("matches Ethereum's personal_sign (a known vector)", () => {
    // Private key 0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318 (web3.js docs).
    const key = fromHex("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318");
    expect(addressOf(key)).toBe("2c7536e3605d9c16a7a3d7b1898e529396a65c23");
    expect(signMessage(key, "Some data")).toBe(
      "b91467e570a6466aa9e9876cbcd013baba02900b8979d43fe208a4a4f339f5fd6007e74cd82e037b800186422fc2da167c747ef045e5d18a5f5d4300f8e1a0291c",
    );
  });
});
