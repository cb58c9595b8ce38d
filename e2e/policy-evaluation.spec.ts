// A policy version's evaluation before publishing, on the version's page: what publishing it changes,
// a publish refused over regressions nobody acknowledged, an acknowledgement by name (which a reviewer
// may not give), then the publish – after which an approval that was waiting is stale; and a real
// evaluation, asked for on a draft and run by the job queue in a process of its own, its progress
// shown until its results are in.
// The regressing evaluations are fixtures (prisma/seed/e2e-evaluation.ts); the draft evaluated for
// real is the demo's seller-private-note-44.
import type { Page } from "@playwright/test";
import { expect, signedInPage, test } from "./fixtures";

const PUBLISH = "/documents/e2e-evaluation-publish/1";

/** A ticket of its own asking how long a refund takes, run live: a reply waiting for a reviewer. Its address. */
async function waitingReply(page: Page): Promise<string> {
  await page.goto("/tickets/new");
  await page.getByLabel("Customer email").fill("priya.nair@example.net");
  await page.getByLabel("Order number").fill("ORD-1004");
  await page.getByLabel("Subject").fill("Evaluation spec: when does my refund arrive?");
  await page.getByLabel("Message").fill("How long until an approved refund reaches my card?");
  await page.getByRole("button", { name: "Create ticket" }).click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: "Run agent" }).click();
  await expect(page.getByRole("heading", { name: "Waiting for your decision" })).toBeVisible({ timeout: 20_000 });
  return page.url();
}

test("a version's regressions: listed, publishing refused over them, acknowledged by name, then published", async ({
  page,
  signInAs,
  browser,
}) => {
  // A reviewer sees what was found, and why they may not acknowledge it.
  await signInAs("REVIEWER");
  await page.goto(PUBLISH);
  const panel = page.getByRole("region", { name: "Evaluation before publishing" });
  await expect(panel).toContainText("2 regressions: publishing is refused until someone who may publish acknowledges them by name.");
  const lost = panel.getByRole("group").filter({ hasText: "Answers lost: 1" });
  await expect(lost).toContainText("timing-how-long");
  await expect(lost).toContainText("before: support-sla@1 → after: nothing (no approved evidence)");
  await expect(panel.getByRole("group").filter({ hasText: "Episodes that fail after publishing: 1" })).toContainText(
    "How long a refund takes: a cited reply",
  );
  await panel.getByText("Citations moved, answer kept: 1").click();
  await expect(panel).toContainText("response-hear-back");
  await expect(panel.getByRole("button", { name: "Acknowledge 2 regressions" })).toBeDisabled();
  await expect(panel).toContainText("Acknowledging regressions needs the role lead or higher, as publishing does.");

  // A reply waits for a decision under the policies in effect now.
  const ticket = await waitingReply(page);
  const decision = page.getByRole("form", { name: "Decision" });
  await expect(decision.getByRole("button", { name: "Approve" })).toBeEnabled();

  // While they stand, a lead's Publish is disabled with the gate's own sentence, and a click forced
  // past the page is refused by the server in the same words; the lead acknowledges them with a note,
  // and publishes.
  const lead = await signedInPage(browser, "LEAD");
  await lead.goto(PUBLISH);
  const publish = lead.getByRole("form", { name: "Publish" }).getByRole("button", { name: "Publish" });
  const refusal =
    /^The evaluation of this content found 2 regressions \(1 answer lost, 1 episode failing after publishing\) that nobody has acknowledged/;
  await expect(publish).toBeDisabled();
  await expect(publish).toHaveAccessibleDescription(refusal);
  await publish.evaluate((button) => button.removeAttribute("disabled"));
  await publish.click();
  await expect(lead.getByTestId("move-message")).toHaveText(refusal);
  const acknowledge = lead.getByRole("form", { name: "Acknowledge regressions" });
  await acknowledge.getByLabel(/^Note/).fill("Refund timing moves to the payments FAQ.");
  await acknowledge.getByRole("button", { name: "Acknowledge 2 regressions" }).click();
  await expect(lead.getByTestId("acknowledged")).toContainText("2 regressions acknowledged by Lee Lead at");
  await expect(lead.getByTestId("acknowledged")).toContainText("“Refund timing moves to the payments FAQ.”");
  await expect(publish).toBeEnabled();
  await publish.click();
  await expect(lead.getByTestId("move-message")).toHaveText("Published: it is evidence from now on.");

  // The reply was made under the corpus before the publish: stale now, as after a policy setting.
  await page.goto(ticket);
  await expect(decision.getByTestId("blocked")).toHaveText(
    /^The policy, intake bundle or agent changed since this request was made \(a setting, a policy document published or retired/,
  );
  await expect(decision.getByRole("button", { name: "Approve" })).toBeDisabled();
});

test("a draft evaluated for real: the job runs, its progress shows, and what publishing it changes is listed", async ({
  page,
  signInAs,
}) => {
  test.setTimeout(240_000);
  await signInAs("SPECIALIST");
  await page.goto("/documents/seller-private-note-44/1");
  const panel = page.getByRole("region", { name: "Evaluation before publishing" });
  await expect(panel).toContainText("Not evaluated: publishing needs a finished evaluation of exactly this content");
  await panel.getByRole("button", { name: "Evaluate this version" }).click();
  await expect(panel.getByRole("progressbar", { name: "Evaluation progress" })).toBeVisible();
  await expect(panel.getByRole("region", { name: "What publishing changes" })).toBeVisible({ timeout: 200_000 });
  await expect(panel).toContainText("Questions answered as labelled");
  await expect(panel).toContainText("Episodes passing");
  await expect(panel).toContainText(/No regressions|regressions?: publishing is refused/);
  await expect(panel.getByRole("button", { name: "Evaluate again" })).toBeVisible();
});
