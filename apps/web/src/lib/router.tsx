import { createContext, startTransition, useContext, useEffect, useState, type AnchorHTMLAttributes, type ReactNode } from "react";
import { Link as WouterLink, Router, useRoute } from "wouter";
import { navigate as browserNavigate } from "wouter/use-browser-location";

/**
 * The app's router: wouter (a few kilobytes, where React Router cost the login page twelve),
 * with the two things this app relied on React Router for.
 *
 * - A navigation is a transition: the screen on show stays until the next one's code has loaded,
 *   rather than blanking while it arrives. wouter reads the address with useSyncExternalStore,
 *   whose updates cannot be transitions, so the address lives in one state of this provider,
 *   set in a transition whenever the history changes.
 * - Each entry the app pushes carries a key and the caller's state in history.state, so a screen
 *   knows whether it was reached inside the app (a step back stays in the app) or opened from a
 *   link (the first entry, key "default").
 */

interface Place {
  pathname: string;
  search: string;
  /** What the navigation carried (a payment link's reason to sign in, a scan to start). */
  state: unknown;
  key: string;
}

interface Entry {
  usr: unknown;
  key: string;
}

function here(): Place {
  const entry = window.history.state as Partial<Entry> | null;
  return {
    pathname: window.location.pathname,
    search: window.location.search,
    state: entry?.usr ?? null,
    key: entry?.key ?? "default",
  };
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

function go(to: string, { replace = false, state = null }: NavigateOptions = {}) {
  browserNavigate(to, { replace, state: { usr: state, key: Math.random().toString(36).slice(2, 10) } satisfies Entry });
}

const PlaceContext = createContext<Place | null>(null);

function usePlace(): Place {
  const place = useContext(PlaceContext);
  if (!place) throw new Error("router hook outside AppRouter");
  return place;
}

// wouter asks these of the router for the path and the search; both read the provider's one state.
function usePathAndGo(): [string, typeof go] {
  return [usePlace().pathname, go];
}
function useSearchString(): string {
  return usePlace().search;
}

/** The app's router over the browser's history (tests set the address with history.replaceState first). */
export function AppRouter({ children }: { children: ReactNode }) {
  const [place, setPlace] = useState(here);
  useEffect(() => {
    // The same place again (a dialog's back step pushes an entry of the same address) changes nothing.
    const moved = () => {
      const next = here();
      startTransition(() => setPlace((was) => (Object.keys(next).every((k) => next[k as keyof Place] === was[k as keyof Place]) ? was : next)));
    };
    // wouter's browser module announces pushState and replaceState as events of their own.
    const events = ["popstate", "pushState", "replaceState"];
    for (const e of events) window.addEventListener(e, moved);
    moved();
    return () => {
      for (const e of events) window.removeEventListener(e, moved);
    };
  }, []);
  return (
    <PlaceContext.Provider value={place}>
      <Router hook={usePathAndGo} searchHook={useSearchString}>
        {children}
      </Router>
    </PlaceContext.Provider>
  );
}

/** Where the app is: path, search, the state the navigation carried, and the entry's key. */
export function useLocation(): Place {
  return usePlace();
}

const navigate = (to: string | -1, options?: NavigateOptions) => (to === -1 ? window.history.back() : go(to, options));

/** Goes to a path (with its search), or back with -1: one function for the app's life, safe in an effect's dependencies. */
export function useNavigate() {
  return navigate;
}

export function useSearchParams(): [URLSearchParams, (next: Record<string, string> | URLSearchParams, options?: NavigateOptions) => void] {
  const place = usePlace();
  const params = new URLSearchParams(place.search);
  const set = (next: Record<string, string> | URLSearchParams, options?: NavigateOptions) => {
    const search = new URLSearchParams(next).toString();
    go(place.pathname + (search ? `?${search}` : ""), options);
  };
  return [params, set];
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & NavigateOptions & { to: string };

export function Link({ to, ...props }: LinkProps) {
  return <WouterLink href={to} {...props} />;
}

/** A link that says when its page is the one on show (class "active", aria-current="page"); `end` matches the path exactly. */
export function NavLink({ to, end, className, ...props }: LinkProps & { end?: boolean }) {
  const [exact] = useRoute(to);
  const [nested] = useRoute(`${to.replace(/\/$/, "")}/*`);
  const active = exact || (!end && nested);
  return <Link to={to} className={[className, active && "active"].filter(Boolean).join(" ")} aria-current={active ? "page" : undefined} {...props} />;
}

/** Goes elsewhere as soon as it renders (a guard's answer). */
export function Navigate({ to, replace, state }: NavigateOptions & { to: string }) {
  useEffect(() => go(to, { replace, state }), [to, replace, state]);
  return null;
}

export { Route, Switch, useParams, matchRoute, useRouter } from "wouter";

/** The app's router at a given address (the unit tests' way to open a screen at its path). */
export function MemoryRouter({ initialEntries = ["/"], children }: { initialEntries?: string[]; children: ReactNode }) {
  useState(() => window.history.replaceState(null, "", initialEntries.at(-1)));
  return <AppRouter>{children}</AppRouter>;
}
