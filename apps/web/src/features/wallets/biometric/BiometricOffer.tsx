import { lazy, Suspense, useState } from "react";
import { useBiometricAvailable } from "./queries";
import { useBiometricOfferPending } from "./store";

const Prompt = lazy(async () => ({ default: (await import("./BiometricOfferPrompt")).BiometricOfferPrompt }));

/**
 * Mounted on every signed-in screen, but the offer itself (its dialog, the enrolment and the
 * password step-up) loads only once a password login asked for it on a device that can.
 */
export function BiometricOffer() {
  const pending = useBiometricOfferPending();
  const available = useBiometricAvailable();
  // Once asked for, it stays mounted: the prompt takes the request (pending turns false) and then shows its dialog.
  const [wanted, setWanted] = useState(false);
  if (pending && available && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Prompt />
    </Suspense>
  );
}
