import { describe, expect, it } from "vitest";
import { blockedAskersKeys } from "./blocked-askers";
import { askKeys } from "./queries";

describe("the blocked askers' keys", () => {
  it("are the asks' own, so that blocking from a request refreshes Preferences and allowing again refreshes the asks", () => {
    expect(blockedAskersKeys.asks).toEqual(askKeys.all);
    expect(blockedAskersKeys.list).toEqual([...askKeys.all, "blocked"]);
  });
});
