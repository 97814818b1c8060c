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
}

/** A step handler: returns true when it handled the press (closed or stepped back). */
export type BackStep = () => boolean;

export class BackButton {
  private steps: BackStep[] = [];

  constructor(private readonly platform: BackPlatform) {}

  /** While registered, `step` is asked first; returns how to unregister it. */
  register(step: BackStep): () => void {
    this.steps.push(step);
    return () => {
      const i = this.steps.lastIndexOf(step);
      if (i >= 0) this.steps.splice(i, 1);
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

/**
 * The web: browsers have their own back button and no hardware one to listen to, so nothing is
 * intercepted; history is the browser's. (The scan overlay handles the browser's back itself.)
 */
export const webBackPlatform: BackPlatform = {
  listen: () => () => {},
  canGoBack: () => window.history.length > 1,
  goBack: () => window.history.back(),
  exit: () => {},
};

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
