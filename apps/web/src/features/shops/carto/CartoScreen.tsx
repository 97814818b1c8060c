import { Suspense, lazy } from "react";
import { useLingui } from "@lingui/react";
import { useConfig } from "../../../lib/context";
import { Navigate, useParams } from "../../../lib/router";
import { useSession } from "../../../data/session";
import { MY_BUSINESS } from "@mutua/domain";
import "./carto.css";

// The association's own map and directory: its own chunk, with Leaflet, loaded on /carto alone.
const DirectoryScreen = lazy(() => import("./DirectoryScreen").then((m) => ({ default: m.DirectoryScreen })));
const MyBusinessScreen = lazy(() => import("../business/MyBusinessScreen").then((m) => ({ default: m.MyBusinessScreen })));
const BusinessScreen = lazy(() => import("../business/BusinessScreen").then((m) => ({ default: m.BusinessScreen })));

/**
 * docs/spec.md §2 "/carto": a full-page embed of the configured mapUrl; without one, the
 * association's own map and directory of businesses (docs/architecture.md "The directory");
 * `/carto/<id>`, a business's page of it.
 */
export function CartoScreen() {
  const { i18n } = useLingui();
  const config = useConfig();
  const { businessId } = useParams<{ businessId?: string }>();
  if (businessId === MY_BUSINESS) {
    return (
      <Suspense fallback={<main className="page" aria-busy="true" />}>
        <MyBusinessEntry />
      </Suspense>
    );
  }
  if (businessId) {
    return (
      <Suspense fallback={<main className="page" aria-busy="true" />}>
        <BusinessScreen />
      </Suspense>
    );
  }
  if (config.mapUrl) {
    return (
      <main className="carto">
        <iframe className="carto-frame" src={config.mapUrl} title={i18n._("Map")} />
      </main>
    );
  }
  return (
    <Suspense fallback={<main className="page" aria-busy="true" />}>
      <DirectoryScreen />
    </Suspense>
  );
}

/**
 * `/carto/mine`: the member's own business profile, beside the map it is on (a path of the map's
 * screen, so that the members' table of screens, which every member downloads, carries no other).
 */
function MyBusinessEntry() {
  const session = useSession();
  if (session.status === "loading") return <main className="page" aria-busy="true" />;
  if (session.status !== "member") return <Navigate to="/" replace />;
  return <MyBusinessScreen />;
}
