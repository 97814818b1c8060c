import { lazy, Suspense, useMemo, useState, type FormEvent } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import { businessPath, directoryConfig, NO_HOURS, type BodyOf, type MyBusiness } from "@mutua/domain";
import { Link } from "../../../lib/router";
import { useConfig } from "../../../lib/context";
import { toast } from "../../../lib/toast";
import { useBackends } from "../../../data/session";
import { Field } from "../../../ui/Field";
import { backendLabel } from "../../wallets";
import { photoFromFile } from "../../members";
import { useDirectory } from "../carto/queries";
import { categoryName, type Place } from "../carto/filter";
import type { MapMarker } from "../carto/MapView";
import { HoursEditor } from "./HoursEditor";
import { useMyBusiness, useRemoveMyBusiness, useSaveMyBusiness, useUploadBusinessPhoto } from "./queries";
import "../carto/directory.css";
import "./business.css";

const NO_MARKERS: MapMarker[] = [];
const MapView = lazy(() => import("../carto/MapView").then((m) => ({ default: m.MapView })));

type Draft = BodyOf<"saveMyBusiness">;

const draftOf = (b: MyBusiness | null | undefined): Draft => ({
  name: b?.name ?? "",
  categoryId: b?.categoryId ?? null,
  description: b?.description ?? "",
  address: b?.address ?? "",
  hours: b?.hours ?? NO_HOURS,
  phone: b?.phone ?? "",
  website: b?.website ?? "",
  location: b?.location ?? null,
  accepts: b?.accepts ?? [],
  till: b?.till ?? false,
});

/**
 * A member's business profile (`/business`): they ask for one, an account administrator approves
 * it, and it is on the map. Only what is filled in here is public; the pin is placed on the map
 * (a tap, or dragged) or typed, or found from the address when the association has a geocoder.
 */
export function MyBusinessScreen() {
  const mine = useMyBusiness();
  if (!mine.isSuccess) return <main className="page business" aria-busy="true" />;
  return <MyBusinessForm initial={mine.data} />;
}

function MyBusinessForm({ initial }: { initial: MyBusiness | null }) {
  const { i18n } = useLingui();
  const b = useMyBusiness().data ?? null;
  const directory = useDirectory().data;
  const backends = useBackends().data ?? [];
  const save = useSaveMyBusiness();
  const photo = useUploadBusinessPhoto();
  const remove = useRemoveMyBusiness();
  const [draft, setDraft] = useState<Draft>(() => draftOf(initial));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    save.mutate(draft, {
      onSuccess: (saved) => toast.success(saved?.status === "approved" ? i18n._("Your business profile is saved.") : i18n._("Your request is sent.")),
      onError: (err) => {
        if (err instanceof RefusedError) {
          setErrors(Object.fromEntries(Object.entries(err.fields).map(([k, m]) => [k.split(".")[0]!, i18n._(m.id, m.values)])));
          toast.error(err.msg);
        } else toast.error(i18n._("Your business profile could not be saved. Please try again."));
      },
    });
  };
  const choosePhoto = async (file: File | undefined) => {
    if (!file) return;
    try {
      photo.mutate(await photoFromFile(file), {
        onError: (err) => toast.error(err instanceof RefusedError ? err.msg : i18n._("The photo could not be saved.")),
      });
    } catch {
      toast.error(i18n._("This file is not an image the app can read."));
    }
  };

  return (
    <main className="page business">
      <h1>{i18n._("My business")}</h1>
      <BusinessStatus business={b} />
      <form className="card business-form" onSubmit={submit} noValidate>
        <Field label={i18n._("Public name")} value={draft.name} onChange={(e) => set({ name: e.target.value })} required maxLength={100} error={errors.name} />
        <div className="field">
          <label htmlFor="business-category">{i18n._("Category")}</label>
          <select
            id="business-category"
            value={draft.categoryId ?? ""}
            onChange={(e) => set({ categoryId: e.target.value === "" ? null : Number(e.target.value) })}
          >
            <option value="">{i18n._("No category")}</option>
            {directory?.categories.map((c) => (
              <option key={c.id} value={c.id}>
                {categoryName(c, i18n.locale)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="business-description">{i18n._("Short description")}</label>
          <textarea id="business-description" value={draft.description} maxLength={280} onChange={(e) => set({ description: e.target.value })} />
        </div>
        <Field label={i18n._("Address")} value={draft.address} onChange={(e) => set({ address: e.target.value })} maxLength={200} error={errors.address} />
        <PinPicker address={draft.address} value={draft.location} onChange={(location) => set({ location })} />
        <HoursEditor value={draft.hours} onChange={(hours) => set({ hours })} />
        <Field label={i18n._("Phone")} type="tel" value={draft.phone} onChange={(e) => set({ phone: e.target.value })} maxLength={40} />
        <Field
          label={i18n._("Website")}
          type="url"
          value={draft.website}
          onChange={(e) => set({ website: e.target.value })}
          placeholder="https://"
          maxLength={200}
          error={errors.website}
        />
        <fieldset>
          <legend>{i18n._("Payments it takes")}</legend>
          {backends
            .filter((x) => x.userAccounts.some((a) => a.active))
            .map((x) => (
              <label className="checkbox" key={x.id}>
                <input
                  type="checkbox"
                  checked={draft.accepts.includes(x.id)}
                  onChange={(e) => set({ accepts: e.target.checked ? [...draft.accepts, x.id] : draft.accepts.filter((a) => a !== x.id) })}
                />
                {backendLabel(i18n, x)}
              </label>
            ))}
          <label className="checkbox">
            <input type="checkbox" checked={draft.till} onChange={(e) => set({ till: e.target.checked })} />
            {i18n._("It has a till (payment codes at the counter)")}
          </label>
        </fieldset>
        <button type="submit" className="button primary" disabled={save.isPending}>
          {b ? i18n._("Save my business profile") : i18n._("Ask for a business profile")}
        </button>
      </form>
      {b && (
        <section className="card business-form" aria-labelledby="business-photo-title">
          <h2 id="business-photo-title">{i18n._("Photo or logo")}</h2>
          {b.photoUrl && <img className="business-photo" src={b.photoUrl} alt="" width={96} height={96} />}
          <label className="button small">
            {i18n._("Choose a picture")}
            <input type="file" accept="image/*" hidden onChange={(e) => void choosePhoto(e.target.files?.[0])} />
          </label>
          <button type="button" className="button small danger" onClick={() => remove.mutate(undefined, { onSuccess: () => setDraft(draftOf(null)) })}>
            {i18n._("Withdraw my business from the directory")}
          </button>
        </section>
      )}
    </main>
  );
}

function BusinessStatus({ business }: { business: MyBusiness | null | undefined }) {
  const { i18n } = useLingui();
  if (!business)
    return <p>{i18n._("Do you run a shop or a service? Ask for a business profile: once an administrator approves it, it is on the association's map.")}</p>;
  if (business.status === "approved")
    return (
      <p className="notice info" role="status">
        {i18n._("Your business is on the map.")} <Link to={businessPath(business.id)}>{i18n._("See its page")}</Link>
      </p>
    );
  if (business.status === "pending")
    return (
      <p className="notice info" role="status">
        {i18n._("Your request waits for an administrator's approval.")}
      </p>
    );
  return (
    <p className="notice error" role="status">
      {i18n._("Your request was not approved. Change it and save it to ask again.")}
    </p>
  );
}

/** The business's place: a tap on the map, the pin dragged, the coordinates typed, or the address looked up. */
function PinPicker({ address, value, onChange }: { address: string; value: Place | null; onChange: (p: Place | null) => void }) {
  const { i18n } = useLingui();
  const directory = directoryConfig(useConfig());
  const listed = useDirectory().data;
  // The map opens where the association's businesses are, without their markers (a tap must place the pin).
  const around = useMemo(() => (listed?.businesses ?? []).flatMap((b) => (b.location ? [b.location] : [])), [listed]);
  const coordinate = (text: string, max: number) => {
    const n = Number(text.replace(",", "."));
    return text.trim() !== "" && Number.isFinite(n) && Math.abs(n) <= max ? n : null;
  };
  // The coordinates as typed, for the place they made; a place from the map (a tap, a drag, the
  // geocoder) shows its own.
  const [typed, setTyped] = useState<{ lat: string; lon: string; at: Place | null } | null>(null);
  const text = typed && typed.at === value ? typed : { lat: value ? String(value.lat) : "", lon: value ? String(value.lon) : "" };
  const type = (t: { lat: string; lon: string }) => {
    const lat = coordinate(t.lat, 90);
    const lon = coordinate(t.lon, 180);
    const at = lat !== null && lon !== null ? { lat, lon } : value;
    setTyped({ ...t, at });
    if (at !== value) onChange(at);
  };
  const lookUp = async () => {
    if (!directory.geocoderUrl) return;
    try {
      const url = new URL(directory.geocoderUrl);
      url.searchParams.set("q", address);
      url.searchParams.set("format", "json");
      url.searchParams.set("limit", "1");
      const found = ((await (await fetch(url)).json()) as { lat: string; lon: string }[])[0];
      if (found) onChange({ lat: Number(found.lat), lon: Number(found.lon) });
      else toast.error(i18n._("This address was not found: place the pin on the map."));
    } catch {
      toast.error(i18n._("This address was not found: place the pin on the map."));
    }
  };
  return (
    <fieldset className="business-pin">
      <legend>{i18n._("Place on the map")}</legend>
      <p className="hint">{i18n._("Tap the map where the business is, or drag its pin.")}</p>
      <Suspense fallback={<div className="map-view" aria-busy="true" />}>
        <MapView markers={NO_MARKERS} around={around} pin={value} onPin={onChange} label={i18n._("Map: tap where the business is")} />
      </Suspense>
      <div className="business-pin-coords">
        <Field label={i18n._("Latitude")} inputMode="decimal" value={text.lat} onChange={(e) => type({ ...text, lat: e.target.value })} />
        <Field label={i18n._("Longitude")} inputMode="decimal" value={text.lon} onChange={(e) => type({ ...text, lon: e.target.value })} />
      </div>
      {directory.geocoderUrl && address.trim() !== "" && (
        <button type="button" className="button small" onClick={() => void lookUp()}>
          {i18n._("Find the address on the map")}
        </button>
      )}
    </fieldset>
  );
}
