import { useState } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import type { FederationLink } from "@mutua/domain";
import { useFormat } from "../../../lib/format";
import { toast } from "../../../lib/toast";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { useFederationKeys, useKeyActions } from "./key-queries";
import { groupFingerprint } from "./terms";
import "./keys.css";

/** A key's fingerprint as it is read aloud: monospace, in groups of four. */
export const KeyFingerprint = ({ value }: { value: string }) => <span className="federation-fingerprint">{groupFingerprint(value)}</span>;

/**
 * This server's key, under its fingerprint (docs/federation.md "Key rotation and revocation"):
 * when it was made, the linked associations not yet told the current one, the keys it replaced,
 * and the two ways to a new one, each asked first: a new key (the linked servers are told, and
 * understand the old one until they are), or a key that leaked (every older one revoked, and the
 * linked associations' owners must be called to replace it on their side).
 */
export function ServerKeys({ links }: { links: FederationLink[] }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const keys = useFederationKeys();
  const { rotate } = useKeyActions();
  const [asking, setAsking] = useState<"rotate" | "revoke" | null>(null);
  if (!keys.data) return null;
  const nameOf = (id: string) => {
    const link = links.find((l) => l.id === id);
    return link?.peer?.name || link?.peerUrl || "";
  };
  const notTold = keys.data.links
    .filter((l) => l.knownByThem)
    .map((l) => nameOf(l.linkId))
    .filter(Boolean);
  const current = keys.data.keys.find((k) => k.state === "current");
  const earlier = keys.data.keys.filter((k) => k.state !== "current");
  const make = () => {
    if (!asking || rotate.isPending) return;
    const revoke = asking === "revoke";
    rotate.mutate(revoke, {
      onSuccess: (done) => {
        setAsking(null);
        const fingerprint = groupFingerprint(done.keys.find((k) => k.state === "current")?.fingerprint ?? "");
        toast.success(
          revoke
            ? i18n._("The leaked key is revoked. Read the new fingerprint, {fingerprint}, aloud to each linked association's owners.", { fingerprint })
            : i18n._("This server has a new key: {fingerprint}. The linked associations are told it.", { fingerprint }),
        );
      },
      onError: (e) => {
        setAsking(null);
        toast.error(e instanceof RefusedError ? e.msg : i18n._("The new key could not be made. Please try again."));
      },
    });
  };
  return (
    <div className="federation-keys">
      {current && <p className="hint">{i18n._("Key made on {date}.", { date: fmt.date(new Date(current.createdAt)) })}</p>}
      {notTold.length > 0 && (
        <p className="notice federation-warning" role="note">
          {i18n._(
            "Not yet told our new key: {names}. It is sent again until their servers answer; until then, this server signs to them with the key they know.",
            {
              names: notTold.join(", "),
            },
          )}
        </p>
      )}
      <div className="federation-key-actions">
        <button type="button" className="button small" onClick={() => setAsking("rotate")}>
          {i18n._("Make a new key")}
        </button>
        <button type="button" className="button small federation-key-leaked" onClick={() => setAsking("revoke")}>
          {i18n._("This key leaked: make a new one and never accept it again")}
        </button>
      </div>
      {earlier.length > 0 && (
        <details className="federation-earlier-keys">
          <summary>{i18n._("Earlier keys")}</summary>
          <ul>
            {earlier.map((k) => (
              <li key={k.fingerprint}>
                <KeyFingerprint value={k.fingerprint} />
                <span className={k.state === "revoked" ? "federation-key-state federation-key-revoked" : "federation-key-state"}>
                  {k.state === "revoked"
                    ? i18n._("Revoked on {date}", { date: fmt.date(new Date(k.revokedAt ?? k.createdAt)) })
                    : i18n._("Replaced on {date}", { date: fmt.date(new Date(k.retiredAt ?? k.createdAt)) })}
                </span>
              </li>
            ))}
          </ul>
        </details>
      )}
      {asking === "rotate" && (
        <ConfirmDialog
          title={i18n._("Make a new key?")}
          confirm={i18n._("Make a new key")}
          busy={rotate.isPending}
          onConfirm={make}
          onClose={() => setAsking(null)}
        >
          <p>{i18n._("Each linked association is told the new key by this server, and understands the old one until it has it.")}</p>
          <p>{i18n._("The fingerprint changes: an invitation not answered yet opens nothing any more, and must be made again.")}</p>
        </ConfirmDialog>
      )}
      {asking === "revoke" && (
        <ConfirmDialog
          title={i18n._("This key leaked?")}
          confirm={i18n._("Revoke it and make a new one")}
          danger
          busy={rotate.isPending}
          onConfirm={make}
          onClose={() => setAsking(null)}
        >
          <p>{i18n._("A new key is made, and every older one is revoked: this server never uses them again.")}</p>
          <p>
            {i18n._(
              "Whoever holds the leaked key can speak in this server's name, so the linked associations cannot take the new key on its word: call each one's owners, read them the new fingerprint aloud, and ask them to replace our key with it on their server. Until they do, no payment crosses.",
            )}
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
