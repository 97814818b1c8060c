import { useSyncExternalStore } from "react";
import { getBiometry, getLocalSettings, setBiometry, setLocalSettings } from "../../../lib/storage";

/**
 * This device's biometric setting (docs/spec.md §3 "Local settings" biometryEnabled: unset, true or false)
 * and the credential it registered (docs/spec.md §3 "Biometry store"), as one subscribable value.
 */
export interface BiometricState {
  enabled: boolean | undefined;
  credentialId: string | undefined;
}

const listeners = new Set<() => void>();
let snapshot: BiometricState = read();

function read(): BiometricState {
  return { enabled: getLocalSettings().biometryEnabled, credentialId: getBiometry().hasCredentials?.login };
}

function changed() {
  snapshot = read();
  listeners.forEach((l) => l());
}

export const biometricStore = {
  get: () => snapshot,
  setEnabled(enabled: boolean | undefined) {
    setLocalSettings({ biometryEnabled: enabled });
    changed();
  },
  setCredential(credentialId: string | undefined) {
    setBiometry(credentialId ? { hasCredentials: { login: credentialId } } : {});
    changed();
  },
  subscribe(l: () => void) {
    listeners.add(l);
    return () => void listeners.delete(l);
  },
};

export const useBiometricState = () => useSyncExternalStore(biometricStore.subscribe, biometricStore.get);

/** Set by a password login, taken by the enrolment prompt (docs/spec.md §4: asked right after login). */
let offerPending = false;
const offerListeners = new Set<() => void>();
export const biometricOffer = {
  request() {
    offerPending = true;
    offerListeners.forEach((l) => l());
  },
  dismiss() {
    offerPending = false;
    offerListeners.forEach((l) => l());
  },
  subscribe(l: () => void) {
    offerListeners.add(l);
    return () => void offerListeners.delete(l);
  },
};
export const useBiometricOfferPending = () => useSyncExternalStore(biometricOffer.subscribe, () => offerPending);
