import { useState } from "react";
import { Navigate, useNavigate } from "../../../lib/router";
import { useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import { ErrorCode, M, newPasswordProblems, type Backend, type BodyOf } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { MEMBER_KEY } from "../../../lib/query-policy";
import { PasswordField } from "../../../ui/Field";
import { toast } from "../../../lib/toast";
import { tr } from "../../../lib/i18n";
import { useBackends, useMe, useUnconfiguredBackends } from "../../../data/session";
import { backendLabel, PinFields, savePin, usePinDraft, useUnlock } from "../../wallets";
import "../../../ui/parts.css";
import "../../../ui/switch.css";

/**
 * docs/spec.md §2 "Create-wallet screen": a backend selector when several have no wallet (first
 * preselected); none left sends the member to /. A custodial wallet needs nothing more; a
 * ledger wallet's key pair is made here and leaves only encrypted, under the wallet password.
 */
export function CreateAccountScreen() {
  const { i18n } = useLingui();
  const backends = useBackends();
  const unconfigured = useUnconfiguredBackends();
  const [chosen, setChosen] = useState<string | null>(null);
  if (backends.isPending) return <main className="page" aria-busy="true" />;
  if (unconfigured.length === 0) return <Navigate to="/" replace />;
  const selected = unconfigured.find((b) => b.id === chosen) ?? unconfigured[0]!;
  return (
    <main className="page">
      <h1>{i18n._("Create my wallet")}</h1>
      {unconfigured.length === 1 && <p className="account-card">{backendLabel(i18n, selected)}</p>}
      {unconfigured.length > 1 && (
        <div className="segmented" role="radiogroup" aria-label={i18n._("Backend")}>
          {unconfigured.map((b) => (
            <button
              key={b.id}
              type="button"
              role="radio"
              aria-checked={b.id === selected.id}
              className={b.id === selected.id ? "button primary" : "button"}
              onClick={() => setChosen(b.id)}
            >
              {backendLabel(i18n, b)}
            </button>
          ))}
        </div>
      )}
      {/* What the kind means, in a sentence: the choice is new to most members. */}
      <p className="hint backend-meaning">
        {selected.kind === "ledger"
          ? i18n._(
              "Signed on your device: each payment is signed here with your wallet password, and nobody else, not even the association, can spend from it.",
            )
          : i18n._("Held by the association: you pay once signed in, with nothing to keep on this device.")}
      </p>
      <CreateWallet key={selected.id} backend={selected} />
    </main>
  );
}

function CreateWallet({ backend }: { backend: Backend }) {
  const { i18n } = useLingui();
  const client = useClient();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [busy, setBusy] = useState(false);
  const { policy } = useUnlock();
  const [simplified, setSimplified] = useState(false);
  const pin = usePinDraft();
  const me = useMe().data;
  const ledger = backend.kind === "ledger";
  const problems = newPasswordProblems(password, confirm);
  const passwordError = password && problems.password ? tr(problems.password) : undefined;
  const confirmError = confirm && confirm !== password ? i18n._("Passwords do not match") : undefined;
  const passwordReady = password !== "" && confirm !== "" && !problems.password && !problems.confirmPassword;
  const ready = !busy && (!ledger || (me !== undefined && passwordReady && (!simplified || pin.valid)));

  const create = async () => {
    setBusy(true);
    try {
      let body: BodyOf<"createUserAccount"> = { backendId: backend.id };
      if (ledger) {
        const [wallet, { proveKey }] = await Promise.all([import("@mutua/wallet"), import("../../wallets/wallet-file/key-proof")]);
        const key = wallet.newPrivateKey();
        const keystore = await wallet.encryptKeystore(key, password);
        // The server takes the address only with the new key's signature (nobody claims an address they do not hold).
        body = { ...body, keystore: keystore as unknown as Record<string, unknown>, ...proveKey(wallet, key, keystore.address, backend.id, me!.id) };
      }
      const created = await client.call("createUserAccount", { body });
      toast.success({ id: created.status === "active" ? M.walletCreated : M.walletRequested });
      if (ledger && simplified) {
        // The wallet exists now: a PIN that fails to save must not look like a failed creation.
        await savePin(client, created.internalId, password, pin.pin).catch(() => toast.error({ id: M.pinSaveFailed }));
      }
    } catch (e) {
      if (!(e instanceof RefusedError && e.code === ErrorCode.walletExists)) {
        toast.error({ id: M.walletCreationFailed });
        setBusy(false);
        return;
      }
      toast.warning({ id: M.walletAlreadyCreated });
    }
    await qc.invalidateQueries({ queryKey: MEMBER_KEY });
    void navigate("/dashboard");
  };

  return (
    <form
      className="card create-wallet"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (ready) void create();
      }}
    >
      {ledger && (
        <>
          <p>{i18n._("Choose the password for your wallet. It is different from your user account password and is only related to your wallet.")}</p>
          <PasswordField
            label={i18n._("Password")}
            autoComplete="new-password"
            value={password}
            readOnly={simplified}
            onChange={(e) => setPassword(e.target.value)}
            error={passwordError}
            autoFocus
          />
          <PasswordField
            label={i18n._("Password confirmation")}
            autoComplete="new-password"
            value={confirm}
            readOnly={simplified}
            onChange={(e) => setConfirm(e.target.value)}
            error={confirmError}
          />
          {policy.method === "pin" && (
            <div className="auth-pref">
              <label className="switch">
                <input type="checkbox" role="switch" checked={simplified} disabled={!passwordReady} onChange={(e) => setSimplified(e.target.checked)} />
                <span>{i18n._("Simplified authentication for this device")}</span>
              </label>
              {simplified && <PinFields draft={pin} autoFocus />}
            </div>
          )}
          <p className="notice info">{i18n._("Please note that this password can not be retrieved, so be sure to keep it in a safe and reachable place.")}</p>
        </>
      )}
      <p className="hint">{i18n._("Your wallet becomes usable once an administrator of your local currency approves it.")}</p>
      <button type="submit" className="button primary wide" disabled={!ready} aria-busy={busy}>
        {i18n._("Create my wallet")}
      </button>
    </form>
  );
}
