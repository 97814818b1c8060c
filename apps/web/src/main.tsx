import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { AppRouter } from "./lib/router";
import { QueryClient, QueryClientProvider, onlineManager } from "@tanstack/react-query";
import { I18nProvider } from "@lingui/react";
import { apiBaseUrl, resolveConfig, type AppConfig } from "@mutua/domain";
import { MutuaClient } from "@mutua/client";
import { AppEnvContext } from "./lib/context";
import { initialLanguage, StartupNotice, switchLanguage } from "./app/language";
import { loginRequired } from "./app/login-required";
import { maySignedIn, meQuery } from "./data/session";
import { AppRoutes } from "./app/routes";
import { UnlockProvider } from "./features/wallets/unlock/UnlockProvider";
import { i18n } from "./lib/i18n";
import { applyTheme } from "./lib/theme";
import { registerServiceWorker } from "./lib/pwa";
import { toast } from "./lib/toast";
import { fetchInOwnTask } from "./lib/request-task";
import { ToastHost } from "./ui/ToastHost";
import { BackButton, nativeBackPlatform, webBackPlatform } from "./lib/native/back-button";
import { isNative } from "./lib/native/platform";
import { applyStatusBar } from "./lib/native/status-bar";
import { installBackButton } from "./lib/native/use-back-step";
import "./styles.css";

async function loadConfig(): Promise<AppConfig> {
  try {
    // Preloaded by index.html; the server marks it no-cache, so a change is always seen.
    const res = await fetch("/config.json");
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return resolveConfig(await res.json());
  } catch (e) {
    // Monujo showed a blank page here; the defaults still let a member reach this server.
    console.error("config.json could not be loaded, using defaults:", e);
    return resolveConfig({});
  }
}

async function start() {
  const config = await loadConfig();
  applyTheme(config);
  void applyStatusBar();
  installBackButton(new BackButton(isNative() ? await nativeBackPlatform() : webBackPlatform()));
  const client = new MutuaClient({
    baseUrl: apiBaseUrl(config.lokapiHost, window.location.origin),
    onLoginRequired: loginRequired.emit,
    fetch: fetchInOwnTask,
  });
  // Offline, queries wait for the network with the data they have; an action fails at once
  // instead of waiting to be replayed later (nothing is queued behind the member's back).
  onlineManager.setOnline(navigator.onLine);
  const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false }, mutations: { networkMode: "always" } } });
  const offline = !navigator.onLine;
  let keeping: Promise<void> | undefined;
  if (maySignedIn()) {
    if (!offline) {
      // A returning member: who they are and the screen they open load while the language does.
      void queryClient.prefetchQuery(meQuery(client));
      if (window.location.pathname === "/dashboard") {
        void import("./app/member-routes");
        void import("./features/payments/dashboard/DashboardScreen");
      }
    }
    // What was kept is put back only for an offline start (the service worker has the module at
    // hand): online, every screen decides on fresh data, and the first render waits for nothing.
    keeping = import("./lib/offline-cache").then((m) => m.keepForOffline(queryClient, { restore: offline }), console.error);
  }
  const languageFailure = await switchLanguage(config, initialLanguage(config));
  registerServiceWorker((apply) => toast.action(i18n._("A new version of the app is available."), i18n._("Reload"), apply));
  if (offline) await keeping;
  const root = createRoot(document.getElementById("root")!);
  // The first render as a transition: React renders it in slices, handing the main thread back
  // every few milliseconds, instead of in one long task a modest phone cannot answer a tap during
  // (Lighthouse's Total Blocking Time).
  startTransition(() =>
    root.render(
      <StrictMode>
        <AppEnvContext.Provider value={{ config, client }}>
          <QueryClientProvider client={queryClient}>
            <I18nProvider i18n={i18n}>
              <ToastHost />
              <StartupNotice failure={languageFailure} />
              <UnlockProvider>
                <AppRouter>
                  <AppRoutes />
                </AppRouter>
              </UnlockProvider>
            </I18nProvider>
          </QueryClientProvider>
        </AppEnvContext.Provider>
      </StrictMode>,
    ),
  );
}

void start();
