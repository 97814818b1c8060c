import { afterEach, describe, expect, it, vi } from "vitest";

const sonnerToast = { error: vi.fn(), success: vi.fn(), warning: vi.fn(), info: vi.fn(), dismiss: vi.fn() };
let sonnerAvailable = false;
vi.mock("sonner", () => {
  if (!sonnerAvailable) throw new Error("Failed to fetch dynamically imported module");
  return { toast: sonnerToast, Toaster: () => null };
});

afterEach(() => vi.resetModules());

describe("toasts", () => {
  it("show the message in the app's own live region when the toast library cannot be loaded, and try the library again next time", async () => {
    sonnerAvailable = false;
    const { toast, toastView } = await import("./toast");
    toast.error("Request failed to remote server.");
    await vi.waitFor(() => expect(toastView.get().fallback).toEqual({ kind: "error", text: "Request failed to remote server." }));
    expect(toastView.get().sonner).toBeNull();

    sonnerAvailable = true;
    vi.resetModules();
    toast.success("Done");
    // The host mounts the Toaster, which then listens; only then is the toast sent.
    await vi.waitFor(() => expect(toastView.get().sonner).not.toBeNull());
    expect(sonnerToast.success).not.toHaveBeenCalled();
    toastView.listening();
    await vi.waitFor(() => expect(sonnerToast.success).toHaveBeenCalledWith("Done", {}));
  });

  it("dismisses every toast when told (signing out), also one still waiting for the library", async () => {
    sonnerAvailable = true;
    const { toast, toastView, dismissAllToasts } = await import("./toast");
    toast.error("For the member who signed out");
    await vi.waitFor(() => expect(toastView.get().sonner).not.toBeNull());
    dismissAllToasts();
    expect(sonnerToast.dismiss).toHaveBeenCalledWith();
    toastView.listening();
    toast.error("For the next member");
    await vi.waitFor(() => expect(sonnerToast.error).toHaveBeenCalledWith("For the next member", {}));
    expect(sonnerToast.error).not.toHaveBeenCalledWith("For the member who signed out", {});
  });
});
