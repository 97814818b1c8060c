import { useEffect, useRef, useState } from "react";
import { useLingui } from "@lingui/react";
import type * as Leaflet from "leaflet";
import { directoryConfig } from "@mutua/domain";
import { useConfig } from "../../../lib/context";
import { loadLeaflet } from "./leaflet";
import type { Place } from "./filter";

export interface MapMarker extends Place {
  id: string;
  name: string;
}

export interface MapViewProps {
  markers: readonly MapMarker[];
  onSelect?: (id: string) => void;
  /** The member's own place, once they asked for it ("near me"). */
  me?: Place | null;
  /** Places the first view shows when there is no marker (where the association's businesses are). */
  around?: readonly Place[];
  /** Placing a business's pin: where it is, and what a tap on the map or a drag makes of it. */
  pin?: Place | null;
  onPin?: (p: Place) => void;
  label: string;
  className?: string;
}

/** Where a map with nothing on it looks: the middle of France, seen from high. */
const NOWHERE: [number, number] = [46.6, 2.5];

/**
 * The association's map (Leaflet, its own chunk): the tiles and attribution the owners chose
 * (config.json `directory`), the businesses as markers, clustered when close, a tap on one
 * choosing it; or, to place a business, one pin that a tap moves and that drags.
 */
export function MapView({ markers, around = [], onSelect, me, pin, onPin, label, className }: MapViewProps) {
  const { i18n } = useLingui();
  const directory = directoryConfig(useConfig());
  const box = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<{ L: typeof Leaflet; map: Leaflet.Map } | null>(null);
  const select = useRef(onSelect);
  const place = useRef(onPin);
  useEffect(() => {
    select.current = onSelect;
    place.current = onPin;
  });

  useEffect(() => {
    let made: Leaflet.Map | null = null;
    let gone = false;
    void loadLeaflet().then((L) => {
      if (gone || !box.current) return;
      made = L.map(box.current, { zoomControl: false, attributionControl: true }).setView(NOWHERE, 5);
      L.control.zoom({ zoomInTitle: i18n._("Zoom in"), zoomOutTitle: i18n._("Zoom out") }).addTo(made);
      made.attributionControl.setPrefix(false);
      L.tileLayer(directory.tileUrl, { attribution: escapeHtml(directory.tileAttribution), maxZoom: 19 }).addTo(made);
      made.on("click", (e: Leaflet.LeafletMouseEvent) => place.current?.({ lat: round(e.latlng.lat), lon: round(e.latlng.lng) }));
      setMap({ L, map: made });
    });
    return () => {
      gone = true;
      made?.remove();
    };
    // The map is made once; its tiles are the association's, which do not change while it is shown.
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  // The businesses, clustered; the view fits them the first time there are some.
  const fitted = useRef(false);
  useEffect(() => {
    if (!map) return;
    const { L } = map;
    const group = L.markerClusterGroup({ showCoverageOnHover: false, maxClusterRadius: 60 });
    for (const m of markers) {
      const marker = L.marker([m.lat, m.lon], {
        icon: L.divIcon({ className: "map-marker", html: "", iconSize: [28, 28], iconAnchor: [14, 28] }),
        title: m.name,
        alt: m.name,
        keyboard: true,
      });
      marker.on("click", () => select.current?.(m.id));
      group.addLayer(marker);
    }
    map.map.addLayer(group);
    const shown = [...markers, ...(pin ? [pin] : [])];
    const places = (shown.length > 0 ? shown : around).map((p) => [p.lat, p.lon] as [number, number]);
    if (!fitted.current && places.length > 0) {
      fitted.current = true;
      if (places.length === 1) map.map.setView(places[0]!, 16);
      else map.map.fitBounds(L.latLngBounds(places), { padding: [24, 24], maxZoom: 16 });
    }
    return () => void map.map.removeLayer(group);
  }, [map, markers, around]); // eslint-disable-line react-hooks/exhaustive-deps

  // The member's place, and the pin being placed.
  useEffect(() => {
    if (!map || !me) return;
    const dot = map.L.circleMarker([me.lat, me.lon], { radius: 8, className: "map-me" }).addTo(map.map);
    map.map.setView([me.lat, me.lon], Math.max(map.map.getZoom(), 14));
    return () => void dot.remove();
  }, [map, me]);
  useEffect(() => {
    if (!map || !pin) return;
    const marker = map.L.marker([pin.lat, pin.lon], {
      icon: map.L.divIcon({ className: "map-marker map-pin", html: "", iconSize: [28, 28], iconAnchor: [14, 28] }),
      draggable: true,
      title: i18n._("The business's place"),
      alt: i18n._("The business's place"),
    }).addTo(map.map);
    marker.on("dragend", () => {
      const at = marker.getLatLng();
      place.current?.({ lat: round(at.lat), lon: round(at.lng) });
    });
    return () => void marker.remove();
  }, [map, pin, i18n]);

  return <div ref={box} className={`map-view ${className ?? ""}`} role="region" aria-label={label} />;
}

/** Six decimals: some ten centimetres, more than a door needs. */
const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** The attribution is the owners' text, shown as text (Leaflet takes HTML). */
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
