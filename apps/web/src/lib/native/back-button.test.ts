import { describe, expect, it, vi } from "vitest";
import { BackButton, webBackPlatform, type BackPlatform } from "./back-button";

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

/** A browser's session history: entries of one address, a position in them, popstate after a traversal. */
function fakeBrowser() {
  const target = new EventTarget();
  const entries: unknown[] = [{ page: true }];
  let at = 0;
  const history = {
    get state() {
      return entries[at];
    },
    pushState(state: unknown) {
      entries.splice(at + 1, entries.length, state);
      at++;
    },
    go(delta: number) {
      at = Math.max(0, Math.min(entries.length - 1, at + delta));
      setTimeout(() => target.dispatchEvent(Object.assign(new Event("popstate"), { state: entries[at] })), 0);
    },
  };
  const win = { history, addEventListener: target.addEventListener.bind(target), removeEventListener: target.removeEventListener.bind(target) };
  return { win: win as unknown as Window, back: () => history.go(-1), where: () => ({ at, length: entries.length }) };
}

describe("the browser's back button (docs/spec.md §2: modals close on back)", () => {
  it("steps back inside a dialog, then closes it, and leaves the page where it is; a dialog closed by its own button leaves no entry behind", async () => {
    vi.useFakeTimers();
    try {
      const browser = fakeBrowser();
      const back = new BackButton(webBackPlatform(browser.win));
      back.start();
      let step = 0;
      const offModal = back.register(() => ((step = -1), true));
      const offStep = back.register(() => (step === 2 ? ((step = 1), true) : false));
      step = 2;
      await vi.runAllTimersAsync();
      // One entry per step above the page's own.
      expect(browser.where()).toEqual({ at: 2, length: 3 });
      browser.back();
      await vi.runAllTimersAsync();
      expect(step).toBe(1);
      offStep();
      await vi.runAllTimersAsync();
      browser.back();
      await vi.runAllTimersAsync();
      expect(step).toBe(-1);
      offModal();
      await vi.runAllTimersAsync();
      expect(browser.where().at).toBe(0);

      // Opened again and closed by its own button: its entry is gone back over, unnoticed.
      step = 0;
      const off = back.register(() => ((step = -1), true));
      await vi.runAllTimersAsync();
      expect(browser.where()).toEqual({ at: 1, length: 2 });
      off();
      await vi.runAllTimersAsync();
      expect(browser.where().at).toBe(0);
      expect(step).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
