/** What the first toast loads (lib/toast.ts): the toast library, and what keeps its toasts above an open modal dialog. */
export * from "sonner";
export { keepAboveDialogs } from "./keep-above-dialogs";
