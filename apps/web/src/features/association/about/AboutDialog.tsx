import { useLingui } from "@lingui/react";
import { APP_VERSION } from "@mutua/domain";
import { useConfig } from "../../../lib/context";
import { Dialog } from "../../../ui/Dialog";
import "./about.css";

/** docs/spec.md §2 "About": app name and version 1.1.1. */
export function AboutDialog({ onClose }: { onClose: () => void }) {
  const { i18n } = useLingui();
  const config = useConfig();
  return (
    <Dialog
      title={i18n._("About {appName}", { appName: config.appName })}
      onClose={onClose}
      footer={
        <button type="button" className="button primary" onClick={onClose}>
          {i18n._("Ok")}
        </button>
      }
    >
      {config.logoUrl && <img className="about-logo" src={config.logoUrl} alt="" />}
      {/* The version is the software's, whose name is Mutua whatever the association calls its app. */}
      <p className="about-version">{i18n._("{appName} version {appVersion}", { appName: "Mutua", appVersion: APP_VERSION })}</p>
      <p>
        {i18n._("A wallet for local and complementary currencies, following the work of the Lokavaluto community.")}{" "}
        <a href="https://lokavaluto.fr" target="_blank" rel="noopener noreferrer">
          lokavaluto.fr
        </a>
      </p>
    </Dialog>
  );
}
