import { describe, expect, it } from "vitest";
import { PHOTO_TARGET_BYTES, centredSquare, smallEnough } from "./crop-photo";

describe("centredSquare", () => {
  it("cuts the middle of a landscape picture, and of a portrait one", () => {
    expect(centredSquare(4000, 3000)).toEqual({ x: 500, y: 0, side: 3000 });
    expect(centredSquare(3000, 4000)).toEqual({ x: 0, y: 500, side: 3000 });
  });
  it("takes a square whole, and an odd margin's extra pixel off the far side", () => {
    expect(centredSquare(256, 256)).toEqual({ x: 0, y: 0, side: 256 });
    expect(centredSquare(641, 480)).toEqual({ x: 80, y: 0, side: 480 });
  });
});

describe("smallEnough", () => {
  const blob = (bytes: number) => new Blob([new Uint8Array(bytes)]);
  it("keeps the best quality that fits", async () => {
    const tried: number[] = [];
    const out = await smallEnough(async (q) => (tried.push(q), blob(q > 0.8 ? PHOTO_TARGET_BYTES + 1 : 1000)), PHOTO_TARGET_BYTES);
    expect(out?.size).toBe(1000);
    expect(tried).toEqual([0.85, 0.75]);
  });
  it("gives up (null) when even the lowest quality is too large, or the browser cannot encode", async () => {
    expect(await smallEnough(async () => blob(PHOTO_TARGET_BYTES + 1), PHOTO_TARGET_BYTES)).toBeNull();
    expect(await smallEnough(async () => null, PHOTO_TARGET_BYTES)).toBeNull();
  });
});
