// Policies the team owns, end to end: a specialist imports a folder of Markdown by upload, edits a
// draft, sends it to review and cannot publish it (the button says why, and the server refuses a
// click forced past it); a lead publishes it; a new version is compared with it; the agent cites the
// published document, and once a lead retires it, never again. One document's story, in order: the
// tests share it (serial), each signing in with the role's stored session. That a publish makes an
// approval waiting before it stale is e2e/policy-evaluation.spec.ts's.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { deliverTicket, expect, signedInPage, test } from "./fixtures";

test.describe.configure({ mode: "serial" });

const KEY = "e2e-engraving";
const ENGRAVING = `---
key: ${KEY}
title: Engraving service
locale: en
owner: Support Operations
---
## Free engraving

Engraving on a trophy plaque is free for up to 20 characters.

## Mistakes in an engraving {audience=staff}

If the text was engraved wrongly, offer a new plaque at no charge and note the order.
`;
const GIFT_WRAP = `---
key: e2e-gift-wrap
title: Gift wrapping
locale: en
owner: Fulfilment
---
## Wrapping

Gift wrapping includes a handwritten card.
`;
// An unknown front-matter name on line 4 and a key that is no key on line 1: both named, by line.
const BROKEN = `---
key: Not A Key
title: Broken
colour: blue
---
Some text.
`;

/** A folder as an author keeps it: two documents, a note that is not Markdown, and a broken file in a sub-folder. */
function policyFolder(): string {
  const root = join(mkdtempSync(join(tmpdir(), "countersign-policies-")), "policies");
  mkdirSync(join(root, "drafts"), { recursive: true });
  writeFileSync(join(root, "engraving.md"), ENGRAVING);
  writeFileSync(join(root, "gift-wrap.md"), GIFT_WRAP);
  writeFileSync(join(root, "notes.txt"), "Not a policy.");
  writeFileSync(join(root, "drafts", "broken.md"), BROKEN);
  return root;
}

const moveMessage = (page: Page) => page.getByTestId("move-message");

test("a specialist uploads a folder: a broken file stops the import, named by file and line, and the selection stays to be sent again", async ({
  page,
  signInAs,
}) => {
  await signInAs("SPECIALIST");
  await page.goto("/documents");
  await page.getByText("Import Markdown files").click();
  await page.getByLabel("A folder").setInputFiles(policyFolder());
  const selected = page.getByRole("list", { name: "Selected files" });
  await expect(selected.getByRole("listitem")).toHaveCount(3);
  await expect(page.getByText("Left out, not Markdown (.md): policies/notes.txt.")).toBeVisible();

  await page.getByRole("button", { name: "Import 3 files" }).click();
  await expect(page.getByTestId("import-message")).toHaveText(/^Nothing was imported: 1 file has problems/);
  const problems = page.getByRole("list", { name: "Problems in policies/drafts/broken.md" });
  await expect(problems.getByRole("listitem")).toHaveText([
    /^policies\/drafts\/broken\.md:1 The key "Not A Key" is not lower-case/,
    /^policies\/drafts\/broken\.md:4 Unknown front matter "colour"/,
  ]);
  // Nothing lost: the selection is as it was, and nothing reached the list.
  await expect(selected.getByRole("listitem")).toHaveCount(3);

  await page.getByRole("button", { name: "Remove policies/drafts/broken.md from the selection" }).click();
  await page.getByRole("button", { name: "Import 2 files" }).click();
  await expect(page.getByTestId("import-message")).toHaveText(/^Imported: 2 new drafts\./);
  await expect(page.getByRole("link", { name: `${KEY}@1` })).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(`Engraving service ${KEY}`) });
  await expect(row).toContainText("Draft");
  await expect(row).toContainText("Sam Specialist");
});

test("the author edits the draft (a save over a newer one refused, a problem shown by its line) and sends it to review, but cannot publish it: the button says why and the server refuses; a lead publishes it", async ({
  page,
  signInAs,
  browser,
}) => {
  test.setTimeout(240_000);
  await signInAs("SPECIALIST");
  await page.goto(`/documents/${KEY}/1/edit`);
  // The same draft open in a second tab, saved there first: this tab's save is refused, its text kept.
  const otherTab = await page.context().newPage();
  await otherTab.goto(`/documents/${KEY}/1/edit`);
  await otherTab.getByLabel("Markdown source").fill(ENGRAVING.replace("up to 20 characters", "up to 22 characters"));
  await otherTab.getByRole("button", { name: "Save draft" }).click();
  await expect(otherTab.getByTestId("draft-message")).toHaveText(/^Saved\./);
  await otherTab.close();
  const source = page.getByLabel("Markdown source");
  const mine = ENGRAVING.replace("up to 20 characters", "up to 24 characters");
  await source.fill(mine);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByTestId("draft-message")).toHaveText(
    `${KEY}@1 changed after you opened it, so nothing was saved. Reload it, then make your change again. Your text is still here: copy what you need before you reload.`,
  );
  await expect(source).toHaveValue(mine);

  await page.reload();
  await expect(source).toHaveValue(/up to 22 characters/);
  await source.fill(ENGRAVING.replace("owner: Support Operations", "owner: Support Operations\nowner: Fulfilment"));
  await page.getByRole("button", { name: "Check passages" }).click();
  await expect(page.getByRole("button", { name: "Line 6" })).toBeVisible();
  await expect(page.getByText('"owner" is given twice in the front matter.')).toBeVisible();
  await source.fill(ENGRAVING.replace("up to 20 characters", "up to 25 characters"));
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByTestId("draft-message")).toHaveText(/^Saved\. Content hash [0-9a-f]{12}\.$/);
  await expect(page.getByRole("heading", { name: "It makes 2 passages, 1 of them for staff only" })).toBeVisible();

  await page.goto(`/documents/${KEY}/1`);
  await expect(page.locator("li", { hasText: "If the text was engraved wrongly" })).toContainText("Staff only");
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(moveMessage(page)).toHaveText(/^Sent to review/);
  // Evaluated before anyone may publish it: the labelled questions and the episodes, graded on the
  // corpus as it is and as it would be with this version published (the job queue, for real).
  const panel = page.getByRole("region", { name: "Evaluation before publishing" });
  await panel.getByRole("button", { name: "Evaluate this version" }).click();
  await expect(panel.getByRole("region", { name: "What publishing changes" })).toBeVisible({ timeout: 200_000 });
  await expect(panel).toContainText("No regressions");

  const publish = page.getByRole("button", { name: "Publish" });
  await expect(publish).toBeDisabled();
  // The button says the server's own sentence (lib/documents asked before the click).
  await expect(publish).toHaveAccessibleDescription(`You wrote ${KEY}@1, so you cannot publish it: a second person must.`);
  // Forced past the page: the server refuses it all the same, and the version stays in review.
  await publish.evaluate((button) => button.removeAttribute("disabled"));
  await publish.click();
  await expect(moveMessage(page)).toHaveText(`You wrote ${KEY}@1, so you cannot publish it: a second person must.`);
  await page.reload();
  await expect(page.getByRole("button", { name: "Withdraw from review" })).toBeEnabled();

  const lead = await signedInPage(browser, "LEAD");
  await lead.goto(`/documents/${KEY}/1`);
  await lead.getByRole("button", { name: "Publish" }).click();
  await expect(moveMessage(lead)).toHaveText(/^Published/);
  await expect(lead.getByText(`In effect: this is the version of ${KEY} the agent cites.`)).toBeVisible();
  await expect(lead.locator("dl > div", { hasText: "Published by" })).toHaveText("Published byLee Lead");
  await lead.context().close();
});

test("a new version written from the published one is compared with it: passages and lines marked in words as well as colour", async ({
  page,
  signInAs,
}) => {
  await signInAs("SPECIALIST");
  await page.goto(`/documents/${KEY}/1`);
  await page.getByRole("link", { name: "Write a new version from this one" }).click();
  const source = page.getByLabel("Markdown source");
  const text = (await source.inputValue()).replace("up to 25 characters", "up to 30 characters");
  await source.fill(`${text.trimEnd()}\n\n## Delivery\n\nEngraved items ship two days later.\n`);
  await page.getByRole("button", { name: "Save as a new draft" }).click();
  await expect(page).toHaveURL(new RegExp(`/documents/${KEY}/2/edit$`));

  await page.goto(`/documents/${KEY}`);
  await page.getByRole("link", { name: "Compare with v1" }).click();
  await expect(page.getByRole("heading", { name: "Changes from v1 to v2: Engraving service", level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "Added passages" })).toContainText("Engraved items ship two days later.");
  await expect(page.getByRole("region", { name: "Reworded passages" })).toContainText(
    "Before: Engraving on a trophy plaque is free for up to 25 characters.",
  );
  const lines = page.getByRole("table", { name: /^Lines of v1 and v2/ });
  await expect(lines.getByRole("row").filter({ hasText: "Removed" })).toHaveText([
    /Engraving on a trophy plaque is free for up to 25 characters\./,
  ]);
  await expect(lines.getByRole("row").filter({ hasText: "Added" })).toContainText([/up to 30 characters/, /## Delivery/]);
});

/** Runs the agent live on the ticket and waits for the run to end. */
async function runAgent(page: Page, ticketId: string) {
  await page.goto(`/tickets/${ticketId}`);
  await page.getByRole("button", { name: "Run agent" }).click();
  await expect(page.getByRole("button", { name: "Run agent" })).toBeEnabled({ timeout: 20_000 });
}

test("a retired document is never cited again: the agent cites it while it is published, and not once a lead has retired it", async ({
  page,
  signInAs,
  browser,
  request,
}) => {
  const { ticketId } = await deliverTicket(request, { subject: "Trophy plaque engraving", body: "Is engraving on a trophy plaque free?" });
  await signInAs("SPECIALIST");
  await runAgent(page, ticketId);
  await expect(page.getByRole("link", { name: `Open cited passage ${KEY}@1` }).first()).toBeVisible();

  const lead = await signedInPage(browser, "LEAD");
  await lead.goto(`/documents/${KEY}`);
  await lead.getByRole("button", { name: "Retire document…" }).click();
  await lead.getByRole("form", { name: "Retire document" }).getByRole("button", { name: "Retire", exact: true }).click();
  await expect(moveMessage(lead)).toHaveText(/^Retired/);
  await expect(lead.getByText("No version is in effect: the agent cites none of it")).toBeVisible();
  await lead.context().close();

  await runAgent(page, ticketId);
  await expect(page.getByText("no_approved_evidence").first()).toBeVisible();
  await expect(page.getByRole("link", { name: new RegExp(`^Open cited passage ${KEY}@`) })).toHaveCount(0);
});
