import { Link } from "../../../lib/router";
import { useLingui } from "@lingui/react";
import { EmptyState } from "../../../ui/EmptyState";
import { QrCodeIcon, WalletIcon } from "../../../ui/icons";

/**
 * What the dashboard says when it has nothing to show: why, and the next step.
 * `canCreate` is undefined while the backends load.
 */
export type NextStepProps =
  /** No usable wallet: create one, or wait for the one asked for to be approved. */
  | { kind: "no-wallet"; pending: boolean; canCreate: boolean | undefined }
  /** An account with no transaction yet: how to receive the first payment. */
  | { kind: "no-transactions"; onReceive: (() => void) | undefined };

/** Loaded on demand: most dashboards never show it. */
export default function NextStep(props: NextStepProps) {
  const { i18n } = useLingui();
  if (props.kind === "no-transactions") {
    return (
      <EmptyState
        className="next-step"
        icon={QrCodeIcon}
        title={i18n._("No payments yet")}
        action={
          props.onReceive && (
            <button type="button" className="button" onClick={props.onReceive}>
              {i18n._("Show my QR code")}
            </button>
          )
        }
      >
        {i18n._("Show your QR code or share your payment link to receive your first payment.")}
      </EmptyState>
    );
  }
  if (props.pending) {
    return (
      <EmptyState className="next-step" icon={WalletIcon} title={i18n._("Your wallet is waiting for approval")}>
        {i18n._("An administrator checks every new wallet. Once yours is approved, you can pay and receive payments here.")}
      </EmptyState>
    );
  }
  return (
    <EmptyState
      className="next-step"
      icon={WalletIcon}
      title={i18n._("You don't have any wallet yet.")}
      action={
        props.canCreate === true && (
          <Link className="button primary" to="/create-account">
            {i18n._("Create my wallet")}
          </Link>
        )
      }
    >
      {props.canCreate === true && i18n._("Create your wallet to pay and receive payments.")}
      {props.canCreate === false && i18n._("No wallet can be created for now: please contact your association.")}
    </EmptyState>
  );
}
