// Context beside the decision: a ticket about an order that an earlier ticket already refunded shows
// that refund, what remains refundable, and the earlier ticket with how it was decided.
import { expect, test } from "./fixtures";

test("the ticket page shows the earlier refund on the same order, what remains, and the earlier ticket's decision", async ({
  page,
  signInAs,
}) => {
  await signInAs("REVIEWER");
  await page.goto("/tickets/e2e-history");
  const first = Number(/#(\d+)/.exec((await page.getByRole("heading", { level: 1 }).textContent()) ?? "")![1]);
  const history = page.getByRole("region", { name: "Customer history" });
  // Before anything is refunded.
  await expect(history).toContainText("None yet.");
  await expect(history.getByTestId("remaining-refundable")).toHaveText("79.00 USD of 79.00 USD remains refundable.");
  await expect(history).toContainText("Following up on my tablet");

  await page.getByRole("button", { name: "Run agent" }).click();
  const approve = page.getByRole("form", { name: "Decision" }).getByRole("button", { name: "Approve" });
  await expect(approve).toBeEnabled({ timeout: 20_000 });
  await approve.click();
  await expect(page.getByText(/^Ledger: 79\.00 USD refunded/)).toBeVisible();

  await page.goto("/tickets/e2e-history-followup");
  await expect(history.getByRole("listitem").filter({ hasText: /^79\.00 USD on \d{4}-\d{2}-\d{2} for #\d+$/ })).toContainText(
    `for #${first}`,
  );
  await expect(history.getByTestId("remaining-refundable")).toHaveText("0.00 USD of 79.00 USD remains refundable.");
  const earlier = history.getByRole("listitem").filter({ has: page.getByRole("link", { name: new RegExp(`^#${first} `) }) });
  await expect(earlier).toContainText("refund of 79.00 USD approved by Riley Reviewer");
});
