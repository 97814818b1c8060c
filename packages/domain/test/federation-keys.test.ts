import { describe, expect, it } from "vitest";
import { keyRotationProofText, typedFingerprint } from "../src/federation-keys";

describe("a fingerprint as an owner types it after hearing it", () => {
  const fp = "0123456789abcdef0123456789abcdef";

  it("takes it in groups, with capitals, colons or dashes, as the same fingerprint", () => {
    expect(typedFingerprint(fp)).toBe(fp);
    expect(typedFingerprint("0123 4567 89AB CDEF 0123 4567 89ab cdef")).toBe(fp);
    expect(typedFingerprint(" 01:23:45:67:89:ab:cd:ef-01-23-45-67-89-ab-cd-ef\n")).toBe(fp);
  });

  it("refuses anything but 32 hex digits", () => {
    expect(typedFingerprint(fp.slice(1))).toBeNull();
    expect(typedFingerprint(`${fp}0`)).toBeNull();
    expect(typedFingerprint(fp.replace("a", "g"))).toBeNull();
    expect(typedFingerprint("")).toBeNull();
  });
});

describe("what a new key signs to prove it is held", () => {
  it("names the receiver, the old key and the new one: a proof for one is not one for another", () => {
    const text = keyRotationProofText({ receiver: "https://b.example", oldKey: "old", newKey: "new" });
    expect(text).toBe("mutua-federation/1 new key\nfor: https://b.example\nold: old\nnew: new");
    expect(keyRotationProofText({ receiver: "https://c.example", oldKey: "old", newKey: "new" })).not.toBe(text);
    expect(keyRotationProofText({ receiver: "https://b.example", oldKey: "other", newKey: "new" })).not.toBe(text);
  });
});
