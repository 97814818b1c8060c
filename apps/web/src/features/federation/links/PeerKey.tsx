import { useId, useState } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import { msg, typedFingerprint, type FederationLink } from "@mutua/domain";
import { tr } from "../../../lib/i18n";
import { useFormat } from "../../../lib/format";
import { toast } from "../../../lib/toast";
import { Dialog, dialogAutofocus } from "../../../ui/Dialog";
import { FormField } from "../../../ui/FormField";
import { useFederationKeys, useKeyActions } from "./key-queries";
import { KeyFingerprint } from "./ServerKeys";
import { groupFingerprint } from "./terms";
import "./keys.css";
import { useSectionName } from "./card-sections";

/** Said under the fingerprint typed when it is not one (the server says the same). */
export const FINGERPRINT_TYPED = msg("Type the fingerprint their owners read to you: 32 digits and letters from a to f.");

interface Props {
  /** A link past the invitation: the other side's key is known. */
  link: FederationLink;
  /** The other association, as the card names it. */
  name: string;
}

/**
 * The other side's key on a link's card (docs/federation.md "Key rotation and revocation"): its
 * last change (announced by their server, or replaced by this side's owners), whether they have
 * this server's current key yet, and "Replace their key" for when their owners say theirs leaked:
 * the fingerprint they read aloud, typed, is compared with their server's key before anything is
 * replaced.
 */
export function PeerKey({ link, name }: Props) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const titleId = useId();
  const sectionName = useSectionName(titleId);
  const keys = useFederationKeys();
  const [replacing, setReplacing] = useState(false);
  const info = keys.data?.links.find((l) => l.linkId === link.id);
  const change = info?.peerKeyChange;
  return (
    <section className="federation-peer-key" aria-labelledby={sectionName}>
      <h4 id={titleId}>{change ? i18n._("Their key changed") : i18n._("Their key")}</h4>
      {change && link.peer && (
        <div className="notice federation-warning" role="note">
          <p>
            {i18n._("New key since {date}:", { date: fmt.date(new Date(change.at)) })} <KeyFingerprint value={link.peer.fingerprint} />
          </p>
          <p>
            {change.by === "peer"
              ? i18n._("Announced by their server, which proved it holds it. If their owners did not tell you, call them and compare it aloud.")
              : i18n._("Replaced by our owners with the one their owners read aloud: every key they had before is refused.")}
          </p>
        </div>
      )}
      {info?.knownByThem && (
        <p className="federation-key-pending">{i18n._("Our new key is not yet received by {name}: it is sent again until its server answers.", { name })}</p>
      )}
      <button type="button" className="button small" onClick={() => setReplacing(true)}>
        {i18n._("Replace their key")}
      </button>
      {replacing && <ReplaceDialog link={link} name={name} onClose={() => setReplacing(false)} />}
    </section>
  );
}

/**
 * The fingerprint their owners read aloud, typed, then checked by this server against the key
 * their server holds now: replaced only when they are the same, else said under the field.
 */
function ReplaceDialog({ link, name, onClose }: Props & { onClose: () => void }) {
  const { i18n } = useLingui();
  const { replace } = useKeyActions();
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    if (replace.isPending) return;
    const fingerprint = typedFingerprint(typed);
    if (!fingerprint) return setError(tr(FINGERPRINT_TYPED));
    replace.mutate(
      { linkId: link.id, fingerprint },
      {
        onSuccess: () => {
          onClose();
          toast.success(
            i18n._("The key of {name} is replaced: {fingerprint}. Every key they had before is refused from now on.", {
              name,
              fingerprint: groupFingerprint(fingerprint),
            }),
          );
        },
        onError: (e) => {
          if (e instanceof RefusedError) setError(tr(e.fields.fingerprint ?? e.msg));
          else toast.error(i18n._("Their key could not be replaced. Please try again."));
        },
      },
    );
  };
  return (
    <Dialog title={i18n._("Replace the key of {name}", { name })} onClose={onClose} className="federation-dialog">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <p>{i18n._("Only when their owners told you their key leaked: ask them to read you their server's new fingerprint, by phone or face to face.")}</p>
        <p>{i18n._("This server asks theirs for its key, and replaces ours only if it is the one you typed.")}</p>
        <FormField
          id={`federation-peer-key-${link.id}`}
          fieldClassName="federation-key-field"
          label={i18n._("Their new fingerprint")}
          hint={i18n._("32 digits and letters, as their owners read them: spaces do not count.")}
          error={error}
          ref={dialogAutofocus}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setError(null);
          }}
        />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            {i18n._("Cancel")}
          </button>
          <button type="submit" className="button primary" aria-disabled={replace.isPending} aria-busy={replace.isPending}>
            {i18n._("Replace their key")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
