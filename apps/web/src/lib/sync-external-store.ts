/**
 * What libraries written for React 17 import as "use-sync-external-store/shim" (wouter does): React
 * 18 and later have the hook built in, so the shim's own copy of it need not be shipped.
 */
export { useSyncExternalStore } from "react";
