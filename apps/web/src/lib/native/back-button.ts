/**
 * docs/spec.md §2: the hardware back button closes or steps back in a modal, else goes back in history,
 * else exits the app. Screens and modals register what "back" means for them while they are
 * shown; the newest registration answers first. The platform (Capacitor's App plugin in the
 * native shells) only reports presses and knows how to go back or exit, so the whole rule is
 * testable on the web through the same interface.
 */
export interface BackPlatform {
  /** Calls `onPress` for each press of the hardware button; returns how to stop listening. */
  listen(onPress: () => void): () => void;
  canGoBack(): boolean;
  goBack(): void;
  exit(): void;
  /** How many steps are registered now (the web keeps as many history entries for them). */
  stepsChanged?(count: number): void;
}

/** A step handler: returns true when it handled the press (closed or stepped back). */
export type BackStep = () => boolean;

export class BackButton {
  private steps: BackStep[] = [];

  constructor(private readonly platform: BackPlatform) {}

  /** While registered, `step` is asked first; returns how to unregister it. */
  register(step: BackStep): () => void {
    this.steps.push(step);
    this.platform.stepsChanged?.(this.steps.length);
    return () => {
      const i = this.steps.lastIndexOf(step);
      if (i >= 0) this.steps.splice(i, 1);
      this.platform.stepsChanged?.(this.steps.length);
    };
  }

  press(): "step" | "history" | "exit" {
    for (let i = this.steps.length - 1; i >= 0; i--) if (this.steps[i]!()) return "step";
    if (this.platform.canGoBack()) {
      this.platform.goBack();
      return "history";
    }
    this.platform.exit();
    return "exit";
  }

  start(): () => void {
    return this.platform.listen(() => void this.press());
  }
}

/** Which of our step entries the browser is on (0: the page's own entry). */
const stepEntry = (state: unknown) => (state as { mutuaStep?: number } | null)?.mutuaStep ?? 0;

/**
 * The web: the browser's back button steps back in a modal and closes it too, as a phone's does.
 * Each registered step gets a history entry of the same address above the page's own, so back
 * lands on the entry below instead of leaving the page, and that is read as a press. Entries of
 * steps that ended otherwise (a modal's own Close) are gone back over, unnoticed; after a
 * navigation away, those left beneath are skipped when back comes to them.
 */
export function webBackPlatform(win: Window = window): BackPlatform {
  const h = win.history;
  let on = 0; // our entry the browser is on, as far as we know
  let wanted = 0;
  let ignore = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // At once when a step comes or goes (a going-back over an entry issued later could cancel a
  // navigation begun meanwhile); after a press, once its screens have rendered (a step back inside
  // a dialog may change no registration, and still needs its entry again).
  const sync = () => {
    clearTimeout(timer);
    if (ignore > 0) return;
    on = stepEntry(h.state);
    if (on > wanted) {
      ignore++;
      h.go(wanted - on);
      on = wanted;
    }
    while (on < wanted) h.pushState({ ...(h.state as object), mutuaStep: ++on }, "");
  };
  return {
    listen(onPress) {
      const onPop = (e: PopStateEvent) => {
        const to = stepEntry(e.state);
        if (ignore > 0) ignore--;
        else for (let i = to; i < on; i++) onPress();
        on = to;
        clearTimeout(timer);
        timer = setTimeout(sync, 30);
      };
      win.addEventListener("popstate", onPop);
      sync();
      return () => win.removeEventListener("popstate", onPop);
    },
    // The browser has already gone back: a press no step wanted does nothing more.
    canGoBack: () => false,
    goBack: () => {},
    exit: () => {},
    stepsChanged(count) {
      wanted = count;
      sync();
    },
  };
}

/** Android's back button through @capacitor/app (iOS has none); loaded only in the native shells. */
export async function nativeBackPlatform(): Promise<BackPlatform> {
  const { App } = await import("@capacitor/app");
  let canGoBack = false;
  return {
    listen(onPress) {
      const handle = App.addListener("backButton", (e) => {
        canGoBack = e.canGoBack;
        onPress();
      });
      return () => void handle.then((h) => h.remove());
    },
    canGoBack: () => canGoBack,
    goBack: () => window.history.back(),
    exit: () => void App.exitApp(),
  };
}
