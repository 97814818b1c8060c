import { useEffect, useState } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import { ErrorCode, LOGO_MAX_BYTES, M, SM, msg } from "@mutua/domain";
import { tr } from "../../../lib/i18n";
import { toast } from "../../../lib/toast";
import { useFormat } from "../../../lib/format";
import {
  bodyOf,
  formChanged,
  formOf,
  raisedFloors,
  splitFieldErrors,
  type AssociationSettings,
  type BackendForm,
  type FieldErrors,
  type RaisedFloor,
  type SaveAssociationSettingsBody,
  type SettingsForm,
} from "./form";
import { useSettingsActions } from "./queries";

/** A raised floor, with how many members its new value leaves below it: what the confirmation says. */
export type FloorImpact = RaisedFloor & { below: number };

const without = (errors: FieldErrors, key: string): FieldErrors => Object.fromEntries(Object.entries(errors).filter(([k]) => k !== key));

/** The id of a field's input, from its key as the server names it ("money.bank.iban" → "settings-money-bank-iban"). */
export const fieldId = (key: string) => `settings-${key.replace(/\./g, "-")}`;

/** A PNG or an SVG by its type, or by its name where the device gives no type. */
export function logoType(file: Pick<File, "type" | "name">): "image/png" | "image/svg+xml" | null {
  if (file.type === "image/png" || (!file.type && /\.png$/i.test(file.name))) return "image/png";
  if (file.type === "image/svg+xml" || (!file.type && /\.svg$/i.test(file.name))) return "image/svg+xml";
  return null;
}

/** Bytes as base64, a slice at a time (a spread of 100 KB of arguments would overflow the stack). */
export function base64Of(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/**
 * The state of the settings screen apart from how it is drawn: the form over the settings it was
 * filled from (whose `updatedAt` a save is based on), the errors under its fields, the
 * confirmation a raised floor asks, and what each action says when it is done.
 */
export function useSettingsPage(settings: AssociationSettings) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const actions = useSettingsActions();
  // The settings the form was filled from: a save names their version.
  const [base, setBase] = useState(settings);
  const [form, setForm] = useState(() => formOf(settings, fmt.amountInput));
  const [errors, setErrors] = useState<FieldErrors>({});
  // Bumped when errors are shown: the first field in error takes the focus once they are drawn.
  const [errorsShown, setErrorsShown] = useState(0);
  const [asking, setAsking] = useState<{ body: SaveAssociationSettingsBody; impacts: FloorImpact[] } | null>(null);
  const [checking, setChecking] = useState(false);

  useEffect(() => {
    if (errorsShown === 0) return;
    document.querySelector<HTMLElement>(".settings-form [aria-invalid='true']")?.focus();
  }, [errorsShown]);

  const changed = formChanged(form, base, fmt.amountInput);
  const busy = checking || actions.save.isPending;

  /** Changes the form, and takes the error away from the field changed. */
  const edit = (patch: Partial<SettingsForm>, errorKey?: string) => {
    setForm((f) => ({ ...f, ...patch }));
    if (errorKey && errors[errorKey]) setErrors((e) => without(e, errorKey));
  };
  const editBackend = (index: number, patch: Partial<BackendForm>, errorKey: string) => {
    setForm((f) => ({ ...f, backends: f.backends.map((b, i) => (i === index ? { ...b, ...patch } : b)) }));
    const key = `money.backends.${index}.${errorKey}`;
    if (errors[key]) setErrors((e) => without(e, key));
  };

  const showErrors = (fields: FieldErrors) => {
    setErrors(fields);
    setErrorsShown((n) => n + 1);
    toast.error(i18n._("Some settings need correcting: see the messages under them."));
  };

  /** The settings as now stored, filled in again: after a save, or a conflict's reload. */
  const fillFrom = (s: AssociationSettings) => {
    setBase(s);
    setForm(formOf(s, fmt.amountInput));
    setErrors({});
  };

  const send = (body: SaveAssociationSettingsBody) => {
    actions.save.mutate(body, {
      onSuccess: (s) => {
        setAsking(null);
        fillFrom(s);
        toast.success(i18n._("The settings are saved"));
      },
      onError: (e) => {
        setAsking(null);
        if (e instanceof RefusedError && (e.status === 409 || e.code === ErrorCode.stateConflict)) {
          toast.error(msg(SM.settingsChangedMeanwhile));
          actions.reload().then(fillFrom, () => toast.error(i18n._("The settings could not be loaded. Please refresh the page.")));
          return;
        }
        if (e instanceof RefusedError && Object.keys(e.fields).length > 0) {
          const { shown, others } = splitFieldErrors(e.fields, (k) => document.getElementById(fieldId(k)) !== null);
          others.forEach((m) => toast.error(m));
          if (Object.keys(shown).length > 0) showErrors(shown);
          return;
        }
        toast.error(e instanceof RefusedError ? e.msg : msg(M.settingsSaveFailed));
      },
    });
  };

  /** Save: a floor raised is confirmed first, saying how many members it leaves below. */
  const save = async () => {
    if (!changed || busy) return;
    const r = bodyOf(form, base.updatedAt);
    if (!r.ok) return showErrors(r.errors);
    const raised = raisedFloors(base, r.body);
    if (raised.length === 0) return send(r.body);
    setChecking(true);
    try {
      const answers = await Promise.all(raised.map((f) => actions.floorImpact(f.backendId, f.to)));
      setAsking({ body: r.body, impacts: raised.map((f, i) => ({ ...f, below: answers[i]!.below })) });
    } catch (e) {
      toast.error(e instanceof RefusedError ? e.msg : i18n._("Could not check how many members are below the new floor. Please try again."));
    } finally {
      setChecking(false);
    }
  };

  /** A logo is saved at once, apart from the form: the form's edits stay, on the version it now has. */
  const keepLogo = (s: AssociationSettings) => setBase((b) => ({ ...b, identity: { ...b.identity, logoUrl: s.identity.logoUrl }, updatedAt: s.updatedAt }));
  const logoFailed = (e: Error) =>
    toast.error(e instanceof RefusedError ? (Object.values(e.fields)[0] ?? e.msg) : i18n._("The logo could not be saved. Please try again."));

  const uploadLogo = async (file: File) => {
    const type = logoType(file);
    if (!type || file.size > LOGO_MAX_BYTES) return toast.error(msg(SM.logoInvalid));
    const data = base64Of(new Uint8Array(await file.arrayBuffer()));
    actions.upload.mutate(
      { type, data },
      {
        onSuccess: (s) => {
          keepLogo(s);
          toast.success(i18n._("The logo is saved"));
        },
        onError: logoFailed,
      },
    );
  };
  const removeLogo = () =>
    actions.removeLogo.mutate(undefined, {
      onSuccess: (s) => {
        keepLogo(s);
        toast.success(i18n._("The logo is removed"));
      },
      onError: logoFailed,
    });

  return {
    base,
    form,
    edit,
    editBackend,
    errors,
    error: (key: string): string | undefined => (errors[key] ? tr(errors[key]) : undefined),
    changed,
    busy,
    save: () => void save(),
    asking,
    cancel: () => setAsking(null),
    confirm: () => asking && send(asking.body),
    uploadLogo: (file: File) => void uploadLogo(file),
    removeLogo,
    logoBusy: actions.upload.isPending || actions.removeLogo.isPending,
  };
}

export type SettingsPageState = ReturnType<typeof useSettingsPage>;
