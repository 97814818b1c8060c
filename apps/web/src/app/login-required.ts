/**
 * The client library reports a 401 on a private call here; the layout, which can navigate,
 * listens and logs the member out (docs/spec.md §4 "Other transitions").
 */
type Listener = () => void;
const listeners = new Set<Listener>();

export const loginRequired = {
  emit: () => listeners.forEach((l) => l()),
  subscribe(l: Listener) {
    listeners.add(l);
    return () => void listeners.delete(l);
  },
};
