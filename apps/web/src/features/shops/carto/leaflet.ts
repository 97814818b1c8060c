import "leaflet/dist/leaflet.css";
import "leaflet.markercluster/dist/MarkerCluster.css";

/**
 * Leaflet and its marker clusters, loaded by the map alone (a chunk of their own). The cluster
 * plugin is an old script that extends the global `L`: it is given Leaflet's module as `L` first.
 */
export async function loadLeaflet() {
  const L = (await import("leaflet")).default;
  (window as unknown as { L: typeof L }).L = L;
  await import("leaflet.markercluster");
  return L;
}
