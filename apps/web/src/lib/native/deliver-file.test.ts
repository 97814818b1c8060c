import { beforeEach, describe, expect, it, vi } from "vitest";

/** The shells have neither downloads nor a file-sharing browser API: a file goes to the cache, then the share sheet. */
const native = vi.hoisted(() => ({ on: true, written: [] as { path: string; data: string; directory: string }[], shared: [] as unknown[] }));
vi.mock("./platform", () => ({ isNative: () => native.on }));
vi.mock("@capacitor/filesystem", () => ({
  Directory: { Cache: "CACHE" },
  Filesystem: {
    writeFile: async (o: { path: string; data: string; directory: string }) => {
      native.written.push(o);
      return { uri: `file:///cache/${o.path}` };
    },
  },
}));
vi.mock("@capacitor/share", () => ({ Share: { share: async (o: unknown) => void native.shared.push(o) } }));

const { deliverFile } = await import("../deliver-file");

describe("deliverFile", () => {
  beforeEach(() => {
    native.written.length = 0;
    native.shared.length = 0;
  });

  it("in a native shell, writes the file to the cache and opens the share sheet with it", async () => {
    native.on = true;
    expect(await deliverFile("Date,Amount\n2026-11-23,1.00\n", "history.csv", "text/csv", "Export")).toBe("shared");
    expect(native.written).toEqual([{ path: "history.csv", data: btoa("Date,Amount\n2026-11-23,1.00\n"), directory: "CACHE" }]);
    expect(native.shared).toEqual([{ title: "Export", files: ["file:///cache/history.csv"] }]);
  });

  it("on the web, downloads it through a link", async () => {
    native.on = false;
    URL.createObjectURL = () => "blob:x";
    URL.revokeObjectURL = () => {};
    const clicked: string[] = [];
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    };
    expect(await deliverFile("x", "wallet.json", "application/json")).toBe("downloaded");
    expect(clicked).toEqual(["wallet.json"]);
    expect(native.shared).toEqual([]);
  });
});

describe("isNative", () => {
  it("reads the bridge Capacitor defines in the shells, and is false without it", async () => {
    const { isNative } = await vi.importActual<typeof import("./platform")>("./platform");
    expect(isNative()).toBe(false);
    (globalThis as { Capacitor?: unknown }).Capacitor = { isNativePlatform: () => true };
    expect(isNative()).toBe(true);
    delete (globalThis as { Capacitor?: unknown }).Capacitor;
  });
});
