import { useState, type FormEvent } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import type { DirectorySettings } from "@mutua/domain";
import { toast } from "../../../lib/toast";
import { Field } from "../../../ui/Field";
import { useDirectorySettings, useSaveDirectorySettings } from "./queries";
import "./business.css";

interface Draft {
  categories: { id: number | null; en: string; fr: string }[];
  tileUrl: string;
  tileAttribution: string;
  geocoderUrl: string;
  timeZone: string;
  /** One origin a line. */
  embedOrigins: string;
}

const draftOf = (s: DirectorySettings): Draft => ({
  categories: s.categories,
  tileUrl: s.tileUrl ?? "",
  tileAttribution: s.tileAttribution ?? "",
  geocoderUrl: s.geocoderUrl ?? "",
  timeZone: s.timeZone,
  embedOrigins: s.embedOrigins.join("\n"),
});

/**
 * The owners' settings of the map and directory, in the association's settings: the categories
 * in both languages, the tile server and its attribution (OpenStreetMap's by default), the time
 * zone of opening hours, an optional geocoding service, and the sites that may frame the map.
 */
export function DirectorySettingsSection() {
  const settings = useDirectorySettings();
  return settings.data ? <DirectorySettingsForm initial={settings.data} /> : null;
}

function DirectorySettingsForm({ initial }: { initial: DirectorySettings }) {
  const { i18n } = useLingui();
  const save = useSaveDirectorySettings();
  const [draft, setDraft] = useState<Draft>(() => draftOf(initial));
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const setCategory = (i: number, patch: Partial<Draft["categories"][number]>) =>
    set({ categories: draft.categories.map((c, j) => (j === i ? { ...c, ...patch } : c)) });
  const orNull = (s: string) => (s.trim() === "" ? null : s.trim());

  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(
      {
        categories: draft.categories,
        tileUrl: orNull(draft.tileUrl),
        tileAttribution: orNull(draft.tileAttribution),
        geocoderUrl: orNull(draft.geocoderUrl),
        timeZone: draft.timeZone.trim(),
        embedOrigins: draft.embedOrigins
          .split(/\s+/)
          .map((o) => o.trim().replace(/\/+$/, ""))
          .filter(Boolean),
      },
      {
        onSuccess: (s) => {
          setDraft(draftOf(s));
          toast.success(i18n._("The directory's settings are saved."));
        },
        onError: (err) => toast.error(err instanceof RefusedError ? err.msg : i18n._("The directory's settings could not be saved. Please try again.")),
      },
    );
  };

  return (
    <form className="card business-form directory-settings" onSubmit={submit} aria-labelledby="directory-settings-title">
      <h2 id="directory-settings-title">{i18n._("Map and directory")}</h2>
      <fieldset>
        <legend>{i18n._("Categories of businesses")}</legend>
        {draft.categories.map((c, i) => (
          <div className="hours-row" key={c.id ?? `new-${i}`}>
            <Field label={i18n._("In English")} value={c.en} maxLength={60} onChange={(e) => setCategory(i, { en: e.target.value })} />
            <Field label={i18n._("In French")} value={c.fr} maxLength={60} onChange={(e) => setCategory(i, { fr: e.target.value })} />
            <button type="button" className="button small" onClick={() => set({ categories: draft.categories.filter((_, j) => j !== i) })}>
              {i18n._("Remove")}
            </button>
          </div>
        ))}
        <button type="button" className="button small" onClick={() => set({ categories: [...draft.categories, { id: null, en: "", fr: "" }] })}>
          {i18n._("Add a category")}
        </button>
      </fieldset>
      <Field
        label={i18n._("Map tiles")}
        value={draft.tileUrl}
        onChange={(e) => set({ tileUrl: e.target.value })}
        hint={
          <p className="hint">
            {i18n._(
              "The address of an OpenStreetMap-based raster tile server, with {z}, {x} and {y} where each tile's zoom and place go; OpenStreetMap's own when empty.",
              {
                z: "{z}",
                x: "{x}",
                y: "{y}",
              },
            )}
          </p>
        }
      />
      <Field label={i18n._("Attribution of the tiles")} value={draft.tileAttribution} onChange={(e) => set({ tileAttribution: e.target.value })} />
      <Field label={i18n._("Time zone of opening hours")} value={draft.timeZone} onChange={(e) => set({ timeZone: e.target.value })} />
      <Field label={i18n._("Geocoding service (optional)")} value={draft.geocoderUrl} onChange={(e) => set({ geocoderUrl: e.target.value })} />
      <div className="field">
        <label htmlFor="embed-origins">{i18n._("Sites that may show the map (one a line)")}</label>
        <textarea
          id="embed-origins"
          value={draft.embedOrigins}
          onChange={(e) => set({ embedOrigins: e.target.value })}
          placeholder="https://www.association.example"
        />
        <p className="hint">{i18n._("They frame /carto?embed=1. The directory is also at /api/directory.geojson and /api/directory.csv.")}</p>
      </div>
      <button type="submit" className="button primary" disabled={save.isPending}>
        {i18n._("Save the map and directory")}
      </button>
    </form>
  );
}
