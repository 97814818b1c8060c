import { useEffect, useState } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import type { FederationInvitationPreview, FederationLink, FederationOverview, FederationTerms } from "@mutua/domain";
import { tr } from "../../../lib/i18n";
import { toast } from "../../../lib/toast";
import { useFormat } from "../../../lib/format";
import { useFederationActions } from "./queries";
import { CODE_MISSING, DEFAULT_TERMS, confirmDefaults, termsFormOf, termsOf, type FieldErrors, type TermsForm } from "./terms";

/** The dialog open over the list, if any. */
export type FederationDialog =
  | { kind: "invitation"; code: string }
  /** An invitation's code pasted, then (`preview`) who it comes from, checked, with this side's terms and the Accept button. */
  | { kind: "accept"; preview: FederationInvitationPreview | null }
  | { kind: "confirm"; link: FederationLink }
  | { kind: "terms"; link: FederationLink }
  | { kind: "withdraw"; link: FederationLink };

const without = (errors: FieldErrors, key: string): FieldErrors => Object.fromEntries(Object.entries(errors).filter(([k]) => k !== key));

/**
 * The state of the links' console apart from how it is drawn: the dialog open (the invitation's
 * code, an acceptance, a confirmation, a link's terms), the form of terms in it with the errors
 * under its fields, and what each action says when it is done or refused.
 */
export function useFederationPage(overview: FederationOverview) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const actions = useFederationActions();
  const [dialog, setDialog] = useState<FederationDialog | null>(null);
  const [code, setCode] = useState("");
  const [form, setForm] = useState<TermsForm>(() => termsFormOf(DEFAULT_TERMS, fmt.amountInput));
  const [errors, setErrors] = useState<FieldErrors>({});
  // Bumped when errors are shown: the first field in error takes the focus once they are drawn.
  const [errorsShown, setErrorsShown] = useState(0);

  useEffect(() => {
    if (errorsShown === 0) return;
    document.querySelector<HTMLElement>(".federation-dialog [aria-invalid='true']")?.focus();
  }, [errorsShown]);

  const showErrors = (fields: FieldErrors) => {
    setErrors(fields);
    setErrorsShown((n) => n + 1);
  };

  const open = (d: FederationDialog, terms: FederationTerms = DEFAULT_TERMS) => {
    setDialog(d);
    setCode("");
    setForm(termsFormOf(terms, fmt.amountInput));
    setErrors({});
  };
  const close = () => setDialog(null);

  /** Changes the form, and takes the error away from the field changed. */
  const edit = (patch: Partial<TermsForm>, errorKey?: string) => {
    setForm((f) => ({ ...f, ...patch }));
    if (errorKey && errors[errorKey]) setErrors((e) => without(e, errorKey));
  };
  const editCode = (text: string) => {
    setCode(text);
    if (errors.code) setErrors((e) => without(e, "code"));
  };

  const failed = () => i18n._("The link could not be saved. Please try again.");

  /**
   * The code pasted, its inviting server asked who it is: its name, address and fingerprint are
   * shown before the Accept button. A refusal (the key not the one the code names, an address
   * where no server answered, a link already made) is said under the code, and nothing can be accepted.
   */
  const check = () => {
    if (dialog?.kind !== "accept" || actions.preview.isPending) return;
    const typedCode = code.trim();
    if (typedCode.length < 10) return showErrors({ code: CODE_MISSING });
    actions.preview.mutate(typedCode, {
      onSuccess: (preview) => {
        setDialog({ kind: "accept", preview });
        // Their currency is known now: the form starts from the same value on both sides.
        setErrors({});
      },
      onError: (e) => (e instanceof RefusedError && Object.keys(e.fields).length === 0 ? showErrors({ code: e.msg }) : refused(e, failed())),
    });
  };

  /** A refusal: under its fields where the dialog has them, else in a toast. */
  const refused = (e: Error, otherwise: string) => {
    if (e instanceof RefusedError) {
      const fields = e.fields;
      const shown = Object.fromEntries(Object.entries(fields).filter(([k]) => k === "code" || k.startsWith("terms.")));
      Object.entries(fields)
        .filter(([k]) => !(k in shown))
        .forEach(([, m]) => toast.error(m));
      if (Object.keys(shown).length > 0) showErrors(shown);
      else if (Object.keys(fields).length === 0) toast.error(e.msg);
      return;
    }
    toast.error(otherwise);
  };

  const invite = () =>
    actions.invite.mutate(undefined, {
      onSuccess: (r) => open({ kind: "invitation", code: r.code }),
      onError: (e) => refused(e, i18n._("The invitation could not be made. Please try again.")),
    });

  const done = (text: string) => () => {
    close();
    toast.success(text);
  };

  /** The dialog's form sent: an acceptance with its code, a confirmation, or new terms. */
  const submit = () => {
    if (!dialog || dialog.kind === "invitation" || dialog.kind === "withdraw" || busy) return;
    const typedCode = code.trim();
    const r = termsOf(form);
    // Nothing is accepted before its inviting server was checked and shown.
    if (dialog.kind === "accept" && !dialog.preview) return check();
    const codeErrors: FieldErrors = dialog.kind === "accept" && typedCode.length < 10 ? { code: CODE_MISSING } : {};
    if (!r.ok || Object.keys(codeErrors).length > 0) return showErrors({ ...codeErrors, ...(r.ok ? {} : r.errors) });
    const terms = r.terms;
    if (dialog.kind === "accept")
      actions.accept.mutate(
        { code: typedCode, terms },
        { onSuccess: done(i18n._("Invitation accepted: the other association confirms it now.")), onError: (e) => refused(e, failed()) },
      );
    else if (dialog.kind === "confirm")
      actions.confirm.mutate(
        { linkId: dialog.link.id, terms },
        { onSuccess: done(i18n._("The two associations are linked.")), onError: (e) => refused(e, failed()) },
      );
    else
      actions.setTerms.mutate(
        { linkId: dialog.link.id, terms },
        {
          onSuccess: (link) =>
            done(
              link.termsPending
                ? i18n._("The terms are saved. {name} has not received them yet: they are sent again until its server answers.", {
                    name: link.peer?.name || link.peerUrl,
                  })
                : i18n._("The terms are saved."),
            )(),
          onError: (e) => refused(e, failed()),
        },
      );
  };

  /** The invitation of the withdraw dialog, withdrawn: its code opens nothing any more. */
  const withdraw = () => {
    if (dialog?.kind !== "withdraw" || actions.withdraw.isPending) return;
    actions.withdraw.mutate(dialog.link.id, {
      onSuccess: done(i18n._("The invitation is withdrawn: its code opens nothing any more.")),
      onError: (e) => refused(e, failed()),
    });
  };

  const busy = actions.preview.isPending || actions.accept.isPending || actions.confirm.isPending || actions.setTerms.isPending;

  return {
    server: overview.server,
    links: overview.links,
    /** The payments in doubt, and those ended by the owners: each link's card lists its own. */
    payments: overview.payments,
    /** The associations each link's server said it forwards our payments to. */
    reach: overview.reach,
    /** The associations whose payments each link's server said it forwards to us. */
    reachedBy: overview.reachedBy,
    /** The settlements of the links: each link's card shows its own. */
    settlements: overview.settlements,
    /** Each link's two figures: what a settlement would bring toward zero, and what an ended link leaves for the boards to settle. */
    balances: overview.balances,
    /** A link waits for this side's confirmation: that is the view's primary action, not a new invitation. */
    toConfirm: overview.links.some((l) => l.state === "accepted" && l.waitingFor === "us"),
    dialog,
    close,
    invite,
    inviting: actions.invite.isPending,
    openAccept: () => open({ kind: "accept", preview: null }),
    /** Back from who invites to the code, to paste another. */
    backToCode: () => dialog?.kind === "accept" && setDialog({ kind: "accept", preview: null }),
    openConfirm: (link: FederationLink) => open({ kind: "confirm", link }, confirmDefaults(link)),
    openTerms: (link: FederationLink) => open({ kind: "terms", link }, link.terms ?? confirmDefaults(link)),
    openWithdraw: (link: FederationLink) => open({ kind: "withdraw", link }),
    withdraw,
    withdrawing: actions.withdraw.isPending,
    code,
    editCode,
    form,
    edit,
    error: (key: string): string | undefined => (errors[key] ? tr(errors[key]) : undefined),
    submit,
    busy,
  };
}

export type FederationPageState = ReturnType<typeof useFederationPage>;
