import { ErrorCode, type AppConfig, SM } from "@mutua/domain";
import { Refusal } from "./errors";

/**
 * What the association's config.json turns off for everyone. The app hides the buttons; the
 * server refuses the operations, so a client that ignores the config cannot use them either.
 */
export interface Features {
  topUp: boolean;
  reconversion: boolean;
}

export const featuresOf = (config: AppConfig): Features => ({ topUp: !config.disableTopUp, reconversion: !config.disableReconversion });

export const ALL_FEATURES: Features = { topUp: true, reconversion: true };

export function requireTopUps(f: Features): void {
  if (!f.topUp) throw new Refusal(ErrorCode.forbidden, { id: SM.topUpsDisabled });
}

export function requireReconversions(f: Features): void {
  if (!f.reconversion) throw new Refusal(ErrorCode.forbidden, { id: SM.reconversionsDisabled });
}
