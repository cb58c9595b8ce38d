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
