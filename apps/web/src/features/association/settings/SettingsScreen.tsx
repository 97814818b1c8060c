import { lazy, Suspense, useCallback, useId, useRef, useState, type ReactNode } from "react";
import { useLingui } from "@lingui/react";
import { Link } from "../../../lib/router";
import type { I18n } from "@lingui/core";
import { useFormat } from "../../../lib/format";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { Skeleton } from "../../../ui/Skeleton";
import { Icon, MenuIcon } from "../../../ui/icons";
import { THEME_KEYS, previewStyle, type AssociationSettings, type BackendForm, type ThemeKey } from "./form";
import { useAssociationSettings } from "./queries";
import { fieldId, useSettingsPage, type FloorImpact, type SettingsPageState } from "./useSettingsPage";
import { FormField } from "../../../ui/FormField";
import "./settings.css";

// The map and directory's settings: saved apart, in the directory's chunk.
const DirectorySettingsSection = lazy(() => import("../../shops/business/DirectorySettingsSection").then((m) => ({ default: m.DirectorySettingsSection })));
import "../../../ui/parts.css";
import "../../../ui/switch.css";

/**
 * The association's settings, for its owners: who it is (name, logo, colours, links, whether
 * members sign up and reset their password themselves) and its money (currency, each backend's
 * bounds, top-ups and reconversions, bank details), with a preview of the sign-in page and the
 * dashboard in the pending colours. One save sends them all; the logo is saved on its own.
 */
export function SettingsScreen() {
  const { i18n } = useLingui();
  const settings = useAssociationSettings();
  let body: ReactNode;
  if (settings.data) body = <SettingsPage settings={settings.data} />;
  else if (settings.isError)
    body = (
      <p className="notice error" role="alert">
        {i18n._("The settings could not be loaded. Please refresh the page.")}
      </p>
    );
  else body = <Skeleton rows={4} className="settings-skeleton" />;
  return (
    <main className="page settings-page" aria-busy={settings.isPending}>
      <h1>{i18n._("Association settings")}</h1>
      <p className="hint">
        {i18n._("Moving in from another system?")} <Link to="/admin/import">{i18n._("Import members")}</Link>
      </p>
      <p className="hint">
        {i18n._("Members paying the shops of another association?")} <Link to="/admin/federation">{i18n._("Linked associations")}</Link>
      </p>
      {body}
      <Suspense fallback={null}>
        <DirectorySettingsSection />
      </Suspense>
    </main>
  );
}

function SettingsPage({ settings }: { settings: AssociationSettings }) {
  const { i18n } = useLingui();
  const page = useSettingsPage(settings);
  const disabled = !page.changed || page.busy;
  return (
    <form
      className="settings-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        page.save();
      }}
    >
      <IdentitySection page={page} />
      <MoneySection page={page} />
      <PreviewSection page={page} />
      <div className="settings-save">
        {/* aria-disabled rather than disabled: the button keeps the focus once the settings are saved. */}
        <button type="submit" className="button primary" aria-disabled={disabled} aria-busy={page.busy}>
          {i18n._("Save the settings")}
        </button>
      </div>
      {page.asking && (
        <ConfirmDialog
          title={i18n._("Lower how much members may owe?")}
          confirm={i18n._("Save")}
          busy={page.busy}
          onConfirm={page.confirm}
          onClose={page.cancel}
        >
          {page.asking.impacts.map((f) => (
            <FloorImpactText key={f.backendId} impact={f} symbol={page.asking!.body.money.currencySymbol} />
          ))}
        </ConfirmDialog>
      )}
    </form>
  );
}

/** "3 members are below the new floor of −50.00 FLO…": who a raised floor leaves below it, and what that means for them. */
function FloorImpactText({ impact, symbol }: { impact: FloorImpact; symbol: string }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const floor = fmt.money(impact.to, symbol).replace(/^-/, "\u2212");
  // Two sentences rather than a plural: a plural's compiled form would weigh on the login page (scripts/copy-catalogs.mjs).
  const text =
    impact.below === 0
      ? i18n._("No member is below the new floor of {floor}: no balance is affected.", { floor })
      : impact.below === 1
        ? i18n._(
            "One member is below the new floor of {floor}. They keep their balance, and cannot pay from their mutual credit until they are back above it.",
            {
              floor,
            },
          )
        : i18n._(
            "{count} members are below the new floor of {floor}. They keep their balance, and cannot pay from their mutual credit until they are back above it.",
            { count: impact.below, floor },
          );
  return <p>{text}</p>;
}

/** A part of the form: a card named by its heading. */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className={`card settings-section settings-section-${id}`} aria-labelledby={`settings-${id}-title`}>
      <h2 id={`settings-${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

interface TextFieldProps {
  /** The field's key as the server names it in a refusal ("money.bank.iban"): its id, and where its error goes. */
  name: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  page: SettingsPageState;
  hint?: string;
  /** The currency's symbol after an amount. */
  unit?: string;
  type?: "text" | "url";
  inputMode?: "decimal" | "url" | "text";
  autoComplete?: string;
  maxLength?: number;
  className?: string;
}

/** A labelled input of the settings, its error found under the key the server names it by. */
function TextField({ name, label, value, onChange, page, hint, unit, type = "text", inputMode, autoComplete = "off", maxLength, className }: TextFieldProps) {
  return (
    <FormField
      id={fieldId(name)}
      label={label}
      unit={unit}
      hint={hint}
      error={page.error(name)}
      fieldClassName={className}
      type={type}
      inputMode={inputMode}
      autoComplete={autoComplete}
      spellCheck={false}
      maxLength={maxLength}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

function Switch({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="switch">
      <input type="checkbox" role="switch" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

function IdentitySection({ page }: { page: SettingsPageState }) {
  const { i18n } = useLingui();
  const { form, edit } = page;
  const linkHint = i18n._("An address starting with https://, or /page for a page of this server. Empty: no link.");
  const links: [key: "helpUrl" | "cguUrl" | "mapUrl", label: string][] = [
    ["helpUrl", i18n._("Help")],
    ["cguUrl", i18n._("Terms of use")],
    ["mapUrl", i18n._("Map")],
  ];
  return (
    <Section id="identity" title={i18n._("Identity")}>
      <TextField
        page={page}
        name="identity.name"
        label={i18n._("Association name")}
        value={form.name}
        onChange={(name) => edit({ name }, "identity.name")}
        autoComplete="organization"
      />
      <LogoField page={page} />
      <fieldset className="settings-group">
        <legend>{i18n._("Colours")}</legend>
        <ColourFields page={page} />
      </fieldset>
      <fieldset className="settings-group">
        <legend>{i18n._("Links")}</legend>
        <p className="hint settings-group-hint">{linkHint}</p>
        {links.map(([key, label]) => (
          <TextField
            key={key}
            page={page}
            name={`identity.${key}`}
            label={label}
            type="url"
            inputMode="url"
            value={form[key]}
            onChange={(v) => edit({ [key]: v }, `identity.${key}`)}
          />
        ))}
      </fieldset>
      <Switch label={i18n._("Members can sign up")} checked={form.allowSignup} onChange={(allowSignup) => edit({ allowSignup })} />
      <Switch
        label={i18n._("Members can reset their password")}
        checked={form.allowResetPassword}
        onChange={(allowResetPassword) => edit({ allowResetPassword })}
      />
    </Section>
  );
}

/** The logo as stored, and the ways to change it: each saved at once, apart from the form. */
function LogoField({ page }: { page: SettingsPageState }) {
  const { i18n } = useLingui();
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const logoUrl = page.base.identity.logoUrl;
  return (
    <div className="field settings-logo">
      <span className="settings-label">{i18n._("Logo")}</span>
      <div className="settings-logo-row">
        <div className="settings-logo-frame">
          {logoUrl ? <img src={logoUrl} alt={i18n._("Current logo")} /> : <span className="hint">{i18n._("No logo uploaded: the app shows its own.")}</span>}
        </div>
        <div className="settings-logo-actions">
          {/* The input itself, hidden: its label is the button the hand sees, and shows its focus. */}
          <label className="button small settings-upload" aria-busy={page.logoBusy}>
            <input
              ref={input}
              type="file"
              accept=".png,.svg,image/png,image/svg+xml"
              aria-describedby={hintId}
              onChange={(e) => {
                const file = e.target.files?.[0];
                // Emptied, so that the same file chosen again is uploaded again.
                e.target.value = "";
                if (file && !page.logoBusy) page.uploadLogo(file);
              }}
            />
            {i18n._("Upload a logo")}
          </label>
          {logoUrl && (
            <button
              type="button"
              className="button small"
              disabled={page.logoBusy}
              onClick={() => {
                // The button goes with the logo: the hand goes back to the upload.
                input.current?.focus();
                page.removeLogo();
              }}
            >
              {i18n._("Remove the logo")}
            </button>
          )}
        </div>
      </div>
      <p className="hint" id={hintId}>
        {i18n._("PNG (at most 2048 × 2048 pixels) or SVG, at most 100 KB. It is saved at once.")}
      </p>
    </div>
  );
}

const LIGHT_DEFAULTS: Record<ThemeKey, string> = { primaryColor: "#1f6f5c", topBarColor: "#ffffff", topBarTextColor: "#1d2623" };

/**
 * The app's own colours, read from its stylesheet (light or dark) through an element that the
 * returned ref is given: what a colour input shows for "Default".
 */
function useDefaultColours(): [Record<ThemeKey, string>, (el: HTMLElement | null) => void] {
  const [colours, setColours] = useState(LIGHT_DEFAULTS);
  const probe = useCallback((el: HTMLElement | null) => {
    if (!el) return;
    const style = getComputedStyle(el);
    const read = (k: ThemeKey) => {
      const v = style.getPropertyValue(`--default-${k}`).trim();
      return /^#[0-9a-f]{6}$/i.test(v) ? v.toLowerCase() : LIGHT_DEFAULTS[k];
    };
    setColours({ primaryColor: read("primaryColor"), topBarColor: read("topBarColor"), topBarTextColor: read("topBarTextColor") });
  }, []);
  return [colours, probe];
}

function ColourFields({ page }: { page: SettingsPageState }) {
  const { i18n } = useLingui();
  const [defaults, probe] = useDefaultColours();
  const label: Record<ThemeKey, string> = {
    primaryColor: i18n._("Main colour"),
    topBarColor: i18n._("Top bar"),
    topBarTextColor: i18n._("Top bar text"),
  };
  return (
    <>
      <span ref={probe} className="settings-default-colours" hidden />
      {THEME_KEYS.map((k) => {
        const key = `identity.theme.${k}`;
        const id = fieldId(key);
        const value = page.form.theme[k];
        const error = page.error(key);
        const set = (v: string | null) => page.edit({ theme: { ...page.form.theme, [k]: v } }, key);
        return (
          <div key={k} className="settings-colour">
            <label id={`${id}-label`} htmlFor={id}>
              {label[k]}
            </label>
            <div className="settings-colour-row">
              <input
                id={id}
                type="color"
                value={value ?? defaults[k]}
                onChange={(e) => set(e.target.value.toLowerCase())}
                aria-invalid={error ? true : undefined}
                aria-describedby={`${id}-value${error ? ` ${id}-error` : ""}`}
              />
              <span className="settings-colour-value" id={`${id}-value`}>
                {value ?? i18n._("Default")}
              </span>
              {value !== null && (
                <button
                  type="button"
                  className="button small"
                  // Read "Default, Main colour": which colour it resets.
                  aria-describedby={`${id}-label`}
                  onClick={() => {
                    // The button goes once the colour is reset: the hand goes to the colour.
                    document.getElementById(id)?.focus();
                    set(null);
                  }}
                >
                  {i18n._("Default")}
                </button>
              )}
            </div>
            {error && (
              <p className="field-error" id={`${id}-error`}>
                {error}
              </p>
            )}
          </div>
        );
      })}
    </>
  );
}

const backendTitle = (i18n: I18n, kind: BackendForm["kind"]) =>
  kind === "ledger" ? i18n._("Ledger wallets (signed on members' devices)") : i18n._("Custodial wallets (held by the server)");

function MoneySection({ page }: { page: SettingsPageState }) {
  const { i18n } = useLingui();
  const { form, edit } = page;
  const symbol = form.currencySymbol.trim();
  return (
    <Section id="money" title={i18n._("Money")}>
      <div className="settings-currency">
        <TextField
          page={page}
          name="money.currencyName"
          label={i18n._("Currency name")}
          value={form.currencyName}
          onChange={(currencyName) => edit({ currencyName }, "money.currencyName")}
        />
        <TextField
          page={page}
          name="money.currencySymbol"
          label={i18n._("Currency symbol")}
          value={form.currencySymbol}
          maxLength={32}
          className="settings-symbol"
          onChange={(currencySymbol) => edit({ currencySymbol }, "money.currencySymbol")}
        />
      </div>
      {form.backends.map((b, i) => (
        <BackendFields key={b.id} page={page} backend={b} index={i} symbol={symbol} />
      ))}
      <Switch label={i18n._("Top-ups")} checked={form.topUps} onChange={(topUps) => edit({ topUps })} />
      <Switch label={i18n._("Reconversions")} checked={form.reconversions} onChange={(reconversions) => edit({ reconversions })} />
      <fieldset className="settings-group">
        <legend>{i18n._("Bank details")}</legend>
        <p className="hint settings-group-hint">{i18n._("Members pay their top-ups to this account.")}</p>
        <TextField page={page} name="money.bank.iban" label="IBAN" value={form.iban} onChange={(iban) => edit({ iban }, "money.bank.iban")} />
        <TextField page={page} name="money.bank.bic" label="BIC" value={form.bic} onChange={(bic) => edit({ bic }, "money.bank.bic")} />
        <TextField
          page={page}
          name="money.bank.holder"
          label={i18n._("Account holder")}
          value={form.holder}
          onChange={(holder) => edit({ holder }, "money.bank.holder")}
        />
      </fieldset>
    </Section>
  );
}

function BackendFields({ page, backend: b, index, symbol }: { page: SettingsPageState; backend: BackendForm; index: number; symbol: string }) {
  const { i18n } = useLingui();
  const at = `money.backends.${index}`;
  const amount = (key: "owe" | "ceiling" | "topUpMin" | "topUpMax", errorKey: string, label: string, hint?: string) => (
    <TextField
      page={page}
      name={`${at}.${errorKey}`}
      label={label}
      unit={symbol}
      inputMode="decimal"
      value={b[key]}
      hint={hint}
      onChange={(v) => page.editBackend(index, { [key]: v }, errorKey)}
    />
  );
  return (
    <fieldset className="settings-group settings-backend">
      <legend>{backendTitle(i18n, b.kind)}</legend>
      {b.kind === "ledger" && (
        <>
          {amount(
            "owe",
            "floor",
            i18n._("Members may owe up to"),
            i18n._(
              "How far below zero a member's mutual credit may go (0: no credit). Lowering it moves nobody's balance: members already further down keep theirs, and cannot pay from their mutual credit until they are back above it.",
            ),
          )}
          {amount("ceiling", "ceiling", i18n._("Mutual credit ceiling"), i18n._("Empty: no ceiling."))}
        </>
      )}
      <div className="settings-pair">
        {amount("topUpMin", "topUpMin", i18n._("Top-up minimum"), i18n._("Empty: no minimum."))}
        {amount("topUpMax", "topUpMax", i18n._("Top-up maximum"), i18n._("Empty: no maximum."))}
      </div>
    </fieldset>
  );
}

/** The sign-in page and the dashboard as members will see them, drawn in the pending colours (on the preview only). */
function PreviewSection({ page }: { page: SettingsPageState }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const { form } = page;
  const logoUrl = page.base.identity.logoUrl;
  const name = form.name.trim();
  const logo = (className: string) => (logoUrl ? <img className={className} src={logoUrl} alt="" /> : null);
  return (
    <Section id="preview" title={i18n._("Preview")}>
      <p className="hint">{i18n._("As members will see it once saved: the new colours and logo show the next time they open the app.")}</p>
      <div className="settings-preview" style={previewStyle(form.theme)}>
        <figure className="preview-screen">
          <figcaption>{i18n._("Sign-in page")}</figcaption>
          <div className="preview-frame preview-login">
            <div className="preview-card">
              {logo("preview-login-logo")}
              <p className="preview-name">{name}</p>
              <span className="preview-input" />
              <span className="preview-input" />
              <span className="preview-button">{i18n._("Sign in")}</span>
            </div>
          </div>
        </figure>
        <figure className="preview-screen">
          <figcaption>{i18n._("Dashboard")}</figcaption>
          <div className="preview-frame">
            <div className="preview-topbar">
              {logo("preview-topbar-logo") ?? <span className="preview-topbar-name">{name}</span>}
              <Icon node={MenuIcon} />
            </div>
            <div className="preview-body">
              <div className="preview-card preview-balance">
                <span className="hint">{i18n._("Balance")}</span>
                <strong>{fmt.centsMoney(12345n, form.currencySymbol.trim())}</strong>
              </div>
              <span className="preview-button">{i18n._("Pay")}</span>
            </div>
          </div>
        </figure>
      </div>
    </Section>
  );
}
