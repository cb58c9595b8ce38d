// Policy settings an admin cannot break by accident: the model planner cannot become the default where
// no model is configured (the suite's server has none), and a setting that decides no refund keeps the
// policy version. With SCREENSHOTS=1 the planner field is saved, before and after the refusal, at each
// width in the test's output folder.
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

async function openSettings(page: Page) {
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Admin", level: 1 })).toBeVisible();
  return page.getByRole("form", { name: "Policy settings" });
}

/** With SCREENSHOTS=1: the page at each width with `field` in the middle, as the admin reads it. */
async function screenshots(page: Page, field: Locator, name: string) {
  if (!process.env.SCREENSHOTS) return;
  const size = page.viewportSize();
  for (const width of [320, 390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await field.evaluate((element) => element.scrollIntoView({ block: "center" }));
    await page.screenshot({ path: test.info().outputPath(`admin-settings-${name}-${width}.png`) });
  }
  if (size) await page.setViewportSize(size);
}

test("the model planner is refused as the default without a model, in words beside the field; nothing is saved", async ({
  page,
  signInAs,
}) => {
  await signInAs("ADMIN");
  const form = await openSettings(page);
  const version = page.getByTestId("policy-version");
  const before = (await version.textContent())!;
  const planner = form.getByLabel("Default planner");
  await expect(planner).toHaveValue("rule");

  // Before any save, the option says it cannot run here, and the field says why.
  await expect(planner.getByRole("option", { name: "Model planner (unavailable)" })).toBeAttached();
  await expect(planner).toHaveAccessibleDescription(/The model planner is unavailable here\. No model is configured: set LLM_BASE_URL/);

  await screenshots(page, planner, "unavailable");
  await planner.selectOption("model");
  await form.getByRole("button", { name: "Save settings" }).click();
  await expect(form.getByTestId("settings-message")).toHaveText("Nothing was saved: check the settings marked above.");
  await expect(planner).toHaveAttribute("aria-invalid", "true");
  await expect(planner).toHaveAccessibleDescription(
    /The model planner cannot be the default: it cannot run here\. No model is configured: set LLM_BASE_URL .* Nothing was saved\./,
  );
  // What was chosen stays chosen, so the admin sees what was refused.
  await expect(planner).toHaveValue("model");
  await expect(version).toHaveText(before);

  await screenshots(page, planner, "refused");

  await page.reload();
  await expect(form.getByLabel("Default planner")).toHaveValue("rule");
  await expect(version).toHaveText(before);
});

test("a setting that decides no refund is saved without a new policy version", async ({ page, signInAs }) => {
  await signInAs("ADMIN");
  const form = await openSettings(page);
  const version = page.getByTestId("policy-version");
  const before = (await version.textContent())!;
  const hours = form.getByLabel("SLA: hours a ticket handed to a person may wait");
  await expect(hours).toHaveAccessibleDescription(/It decides no refund: changing it makes no approval stale\./);
  const original = await hours.inputValue();

  await hours.fill(String(Number(original) + 1));
  await form.getByRole("button", { name: "Save settings" }).click();
  await expect(form.getByTestId("settings-message")).toHaveText(
    `Saved: SLA: hours a ticket handed to a person may wait. Policy version ${before} stays in force: no waiting approval went stale.`,
  );
  await expect(version).toHaveText(before);

  // Back as it was, for whatever runs next on this server.
  await hours.fill(original);
  await form.getByRole("button", { name: "Save settings" }).click();
  await expect(form.getByTestId("settings-message")).toContainText("stays in force");
  await expect(version).toHaveText(before);
});

test("the least role that may publish policy documents is a choice of roles, saved without a new policy version", async ({
  page,
  signInAs,
}) => {
  await signInAs("ADMIN");
  const form = await openSettings(page);
  const version = page.getByTestId("policy-version");
  const before = (await version.textContent())!;
  const role = form.getByLabel("Least role that may publish policy documents");
  await expect(role).toHaveValue("LEAD");
  await expect(role.getByRole("option")).toHaveText(["Reviewer", "Specialist", "Lead", "Admin"]);
  await expect(role).toHaveAccessibleDescription(/It decides no refund: changing it makes no approval stale\./);
  await screenshots(page, role, "publish-role");

  await role.selectOption("SPECIALIST");
  await form.getByRole("button", { name: "Save settings" }).click();
  await expect(form.getByTestId("settings-message")).toHaveText(
    `Saved: least role that may publish policy documents. Policy version ${before} stays in force: no waiting approval went stale.`,
  );
  await page.reload();
  await expect(form.getByLabel("Least role that may publish policy documents")).toHaveValue("SPECIALIST");

  // Back as it was, for whatever runs next on this server.
  await form.getByLabel("Least role that may publish policy documents").selectOption("LEAD");
  await form.getByRole("button", { name: "Save settings" }).click();
  await expect(form.getByTestId("settings-message")).toContainText("stays in force");
  await expect(version).toHaveText(before);
});

test("erasing a customer says why it is refused, by the server's code: no confirmation, no such customer", async ({ page, signInAs }) => {
  await signInAs("ADMIN");
  await page.goto("/admin");
  const card = page.getByRole("region", { name: "Erase a customer" });
  const status = card.getByRole("status");
  await card.getByLabel("Customer id").fill("CUS-NOBODY");
  await card.getByRole("button", { name: "Erase customer" }).click();
  await expect(status).toHaveText("Confirm that the erasure cannot be undone.");
  // The form is reset after each answer (React's form actions): typed again, as a person would.
  await card.getByLabel("Customer id").fill("CUS-NOBODY");
  await card.getByLabel("I understand that this cannot be undone").check();
  await card.getByRole("button", { name: "Erase customer" }).click();
  await expect(status).toHaveText("There is no customer with this id.");
  await screenshots(page, card, "erasure");
});

test("a legal hold placed on a customer refuses their erasure until it is lifted; their data export is downloaded once", async ({
  page,
  signInAs,
}) => {
  await signInAs("ADMIN");
  await page.goto("/admin");
  const data = page.getByRole("region", { name: "A customer's data" });
  const hold = data.getByRole("form", { name: "Legal hold" });
  await hold.getByLabel("Customer id to hold").fill("CUS-005");
  await hold.getByRole("button", { name: "Place legal hold" }).click();
  await expect(hold.getByRole("status")).toHaveText("Placed a legal hold on CUS-005.");

  const erase = page.getByRole("region", { name: "Erase a customer" });
  await erase.getByLabel("Customer id").fill("CUS-005");
  await erase.getByLabel("I understand that this cannot be undone").check();
  await erase.getByRole("button", { name: "Erase customer" }).click();
  await expect(erase.getByRole("status")).toHaveText("A legal hold on the customer or one of their tickets suspends erasure.");

  await hold.getByLabel("Customer id to hold").fill("CUS-005");
  await hold.getByRole("button", { name: "Lift legal hold" }).click();
  await expect(hold.getByRole("status")).toHaveText("Lifted the legal hold on CUS-005.");

  // The export: requested, gathered by a job, then offered for one download.
  const exportForm = data.getByRole("form", { name: "Data export" });
  await exportForm.getByLabel("Customer id to export").fill("CUS-005");
  await exportForm.getByRole("button", { name: "Export their data" }).click();
  await expect(exportForm.getByRole("status")).toHaveText(/^Export of CUS-005 requested/);
  const exports = page.getByRole("list", { name: "Data exports, newest first" });
  const link = exports.getByRole("link", { name: "Download (once)" }).first();
  await expect(async () => {
    await page.reload();
    await expect(link).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await screenshots(page, data, "customer-data");
  const href = (await link.getAttribute("href"))!;
  const first = await page.request.get(href);
  expect(first.status()).toBe(200);
  expect(first.headers()["content-disposition"]).toContain("attachment");
  expect(await first.json()).toMatchObject({ customer: { id: "CUS-005", name: "Elena Brandt", email: "elena.brandt@example.net" } });
  const again = await page.request.get(href);
  expect(again.status()).toBe(409);
  expect(await again.json()).toMatchObject({ code: "export_unavailable" });
  await page.reload();
  await expect(exports.getByRole("listitem").first()).toContainText("Downloaded");
});
