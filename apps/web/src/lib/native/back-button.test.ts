import { describe, expect, it } from "vitest";
import { BackButton, type BackPlatform } from "./back-button";

/** A platform that records what the button made it do, as the native shell's would. */
function fakePlatform(history: number) {
  const did: string[] = [];
  let press: () => void = () => {};
  let depth = history;
  const platform: BackPlatform = {
    listen(onPress) {
      press = onPress;
      return () => (press = () => {});
    },
    canGoBack: () => depth > 1,
    goBack: () => {
      depth--;
      did.push("back");
    },
    exit: () => did.push("exit"),
  };
  return { platform, did, press: () => press() };
}

describe("hardware back button (docs/spec.md §2)", () => {
  it("steps back inside a modal first, then closes it, then goes back in history, then exits", () => {
    const { platform, did, press } = fakePlatform(2);
    const back = new BackButton(platform);
    const stop = back.start();
    let modalOpen = true;
    let step = 2; // a two-step modal on its second step (Send money's review)
    const unregisterModal = back.register(() => {
      if (!modalOpen) return false;
      modalOpen = false;
      return true;
    });
    const unregisterStep = back.register(() => {
      if (step === 1) return false;
      step--;
      return true;
    });

    press();
    expect([step, modalOpen, did]).toEqual([1, true, []]);
    press();
    expect([step, modalOpen, did]).toEqual([1, false, []]);
    unregisterStep();
    unregisterModal();
    press();
    expect(did).toEqual(["back"]);
    press();
    expect(did).toEqual(["back", "exit"]);
    stop();
    press();
    expect(did).toEqual(["back", "exit"]);
  });

  it("asks the newest registration first, and forgets one that is gone", () => {
    const { platform, did } = fakePlatform(1);
    const back = new BackButton(platform);
    const asked: string[] = [];
    back.register(() => (asked.push("screen"), false));
    const off = back.register(() => (asked.push("modal"), true));
    expect(back.press()).toBe("step");
    off();
    expect(back.press()).toBe("exit");
    expect(asked).toEqual(["modal", "screen"]);
    expect(did).toEqual(["exit"]);
  });
});
