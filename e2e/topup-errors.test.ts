import { describe, it } from "vitest";
import { toastText } from "./support/browser";
import { signedIn, useSuite } from "./support/suite";
import { deleteTopUp, nextTopUp, startTopUp, topUpButton, topUpDetails } from "./pages/topup";

const suite = useSuite();

/** docs/spec.md §8 "Top-up": each failure has its message. */
describe("top-up errors", () => {
  it("says so when the order cannot be created, when the pending list fails or lacks the order, and when deleting fails", async () => {
    const { page, context } = await signedIn(suite, "bob@example.com");
    // The dashboard's own first read of the pending list done: a read still in flight would answer
    // the Top up button's (the same query, shared), past the failure installed below.
    await page.waitForLoadState("networkidle");

    // The pending list cannot be read when Top up is pressed.
    await page.route("**/api/topups?*", (r) => r.fulfill({ status: 500, json: { error: { code: "internal_error", message: "x" } } }));
    await topUpButton(page).click();
    await toastText(page, "An unexpected server error occured while fetching pending topup list");
    await page.unroute("**/api/topups?*");

    // The order cannot be created.
    await page.route("**/api/topups", (r) =>
      r.request().method() === "POST" ? r.fulfill({ status: 500, json: { error: { code: "internal_error", message: "x" } } }) : r.continue(),
    );
    let modal = await startTopUp(page, "10");
    await nextTopUp(modal);
    await toastText(page, "An unexpected issue occurred while attempting to top up your account");
    await modal.getByRole("button", { name: "Close", exact: true }).click();
    await page.unroute("**/api/topups");

    // The new order is missing from the pending list.
    await page.route("**/api/topups?*", (r) => r.fulfill({ json: [] }));
    modal = await startTopUp(page, "10");
    await nextTopUp(modal);
    await toastText(page, "An unexpected value was returned in the pending topup list");
    await modal.getByRole("button", { name: "Close", exact: true }).click();
    await page.unroute("**/api/topups?*");

    // Deleting the order fails.
    await topUpButton(page).click();
    const detail = topUpDetails(page);
    await detail.getByText("Requested 10.00 DL").waitFor();
    await page.route("**/api/topups/cancel", (r) => r.fulfill({ status: 500, json: { error: { code: "internal_error", message: "x" } } }));
    await deleteTopUp(detail, "10.00");
    await toastText(page, "An error occurred while deleting top-up request...");
    await context.close();
  });
});
