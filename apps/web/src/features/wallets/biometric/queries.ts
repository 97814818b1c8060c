import { useQuery } from "@tanstack/react-query";
import { STALE } from "../../../lib/query-policy";
import { biometricAvailable } from "./availability";

/** Whether this device can do biometric login; asked once per page load (spec: cached for the session). */
export function useBiometricAvailable(): boolean {
  const q = useQuery({ queryKey: ["device", "biometric-available"], queryFn: biometricAvailable, staleTime: STALE.pageLoad, gcTime: Infinity });
  return q.data === true;
}
