import { createDecipheriv, pbkdf2Sync, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { newPinProof, openWithPin, parsePinRecord, pinProof, sealWithPin, WrongPinError, type PinRecord } from "../src";

const secretHex = () => randomBytes(32).toString("hex");

async function setUp(password: string, pin: string, deviceSecret: string): Promise<{ record: PinRecord; verifier: string }> {
  const { proofSalt, verifier } = await newPinProof(pin);
  const record = await sealWithPin(password, pin, deviceSecret, { pinId: "pin-1", proofSalt });
  return { record: JSON.parse(JSON.stringify(record)) as PinRecord, verifier };
}

/**
 * An attacker holding a copy of the browser's storage, written with Node's own crypto so it also
 * checks the spec's algorithms (PBKDF2-SHA256 with 1023 iterations, AES-256-CBC).
 */
function bruteForce(record: PinRecord, deviceSecret: Buffer): string | null {
  for (let i = 0; i < 10_000; i++) {
    const pin = String(i).padStart(4, "0");
    const key = pbkdf2Sync(Buffer.concat([Buffer.from(pin), deviceSecret]), Buffer.from(record.salt, "hex"), 1023, 32, "sha256");
    try {
      const d = createDecipheriv("aes-256-cbc", key, Buffer.from(record.iv, "hex"));
      const plain = Buffer.concat([d.update(Buffer.from(record.ciphertext, "hex")), d.final()]).toString("utf8");
      if (plain === "Wallet-Pass-9") return pin;
    } catch {
      /* bad padding: wrong guess */
    }
  }
  return null;
}

describe("PIN records", () => {
  it("round-trip: the PIN and the server's device secret give back the wallet password", async () => {
    const device = secretHex();
    const { record, verifier } = await setUp("Wallet-Pass-9 é", "0427", device);
    expect(parsePinRecord(record)).toEqual(record);
    expect(await pinProof("0427", record.proofSalt)).toBe(verifier);
    expect(await pinProof("0428", record.proofSalt)).not.toBe(verifier);
    expect(await openWithPin(record, "0427", device)).toBe("Wallet-Pass-9 é");
    await expect(openWithPin(record, "0428", device)).rejects.toBeInstanceOf(WrongPinError);
    // Nothing in the record is the password, the PIN or the secret: its random fields are hex of
    // their sizes only (where four digits may well occur by chance), and the rest names none of them.
    const { proofSalt, salt, iv, ciphertext, ...rest } = record;
    expect([proofSalt, salt, iv].map((h) => /^[0-9a-f]+$/.test(h) && h.length)).toEqual([64, 64, 32]);
    expect(ciphertext).toMatch(/^[0-9a-f]+$/);
    const stored = JSON.stringify(rest);
    for (const s of ["Wallet-Pass-9", "0427", device]) expect(stored).not.toContain(s);
    expect(JSON.stringify(record)).not.toContain(device);
  });

  it("the stored record alone cannot be opened: every PIN fails without the server's secret", async () => {
    const device = randomBytes(32);
    const { record } = await setUp("Wallet-Pass-9", "0042", device.toString("hex"));
    // The attack works when the secret is known (so this test can fail)...
    expect(bruteForce(record, device)).toBe("0042");
    // ...and finds nothing with any other secret, including none at all.
    expect(bruteForce(record, Buffer.alloc(0))).toBeNull();
    expect(bruteForce(record, randomBytes(32))).toBeNull();
    await expect(openWithPin(record, "0042", secretHex())).rejects.toBeInstanceOf(WrongPinError);
  }, 60_000);

  it("refuses storage values that are not PIN records", () => {
    expect(parsePinRecord(null)).toBeNull();
    expect(parsePinRecord({ version: 1, pinId: "x", proofSalt: "zz", salt: "00", iv: "00", ciphertext: "00" })).toBeNull();
    expect(parsePinRecord({ version: 2 })).toBeNull();
  });
});
