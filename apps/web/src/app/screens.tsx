import { lazy, useEffect, type ComponentType, type ReactNode } from "react";
import { useLingui } from "@lingui/react";
import { useConfig } from "../lib/context";
import { Route, Switch, matchRoute, useLocation, useRouter } from "../lib/router";

/** A screen of the app: its path, its title (a msgid, translated when shown) and what it renders. */
export interface Screen {
  path: string;
  title?: string;
  element: ReactNode;
}

/**
 * Every screen but the login page loads on demand, so a visitor signing in downloads only what
 * the login needs (bench/budgets.json). `wrap` puts the screen behind its guards.
 */
export function screen<M extends Record<K, ComponentType>, K extends keyof M>(
  load: () => Promise<M>,
  /** The screen's name among the module's exports (a string is the fewest bytes a route costs). */
  name: K,
  wrap: (el: ReactNode) => ReactNode = (el) => el,
): ReactNode {
  const Screen = lazy(async () => ({ default: (await load())[name] as ComponentType }));
  return wrap(<Screen />);
}

/** The first of `screens` whose path is the address, with the page's title its own (the tab's, the history's). */
export function Screens({ screens }: { screens: Screen[] }) {
  const { i18n } = useLingui();
  const { appName } = useConfig();
  const { pathname } = useLocation();
  const { parser } = useRouter();
  const title = screens.find((s) => matchRoute(parser, s.path, pathname)[0])?.title;
  useEffect(() => {
    // A catch-all without a title (the signed-in screens' table, a redirect) leaves the title to the screen it shows.
    if (title) document.title = `${appName} - ${i18n._(title)}`;
  }, [title, appName, i18n]);
  return (
    <Switch>
      {screens.map((s) => (
        <Route key={s.path} path={s.path}>
          {s.element}
        </Route>
      ))}
    </Switch>
  );
}
