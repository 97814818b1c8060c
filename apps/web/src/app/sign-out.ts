import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "../lib/router";
import { useClient } from "../lib/context";
import { forgetSession } from "../features/members/auth/sign-in";

/** docs/spec.md §2: sign out clears the session everywhere and goes to the login page. */
export function useLogout() {
  const client = useClient();
  const qc = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    // A device signed out of stops showing the member's notifications: whoever uses the browser
    // next must not see theirs. Only a page under the service worker can have subscribed.
    if (navigator.serviceWorker?.controller)
      await import("../features/notifications/preferences/device-push").then((m) => m.forgetDevicePush(client)).catch(() => undefined);
    await client.call("logout").catch(() => undefined);
    forgetSession(qc);
    void navigate("/");
  };
}
