// The jobs page: admins see what the job queue holds and retry a job that failed for good; nobody
// else sees it.
import { E2E_FAILED_JOBS } from "../prisma/seed/e2e";
import { expect, test } from "./fixtures";

test("an admin sees a failed job with its error and retries it", async ({ page, signInAs }) => {
  await signInAs("ADMIN");
  await page.goto("/admin/jobs");
  await expect(page.getByRole("heading", { name: "Jobs", level: 1 })).toBeVisible();
  const job = page.getByRole("listitem", { name: `Job ${E2E_FAILED_JOBS[1].id}` });
  await expect(job).toContainText(E2E_FAILED_JOBS[1].queue);
  await expect(job).toContainText(`Error: ${E2E_FAILED_JOBS[1].error}`);
  await job.getByRole("button", { name: "Retry" }).click();
  // Out of the failed list at once, back in the queue; the worker runs it again, and this time it succeeds.
  await expect(job).toHaveCount(0);
  await expect(page.getByRole("link", { name: /^Failed \(1\)$/ })).toBeVisible();
  await expect(async () => {
    await page.goto("/admin/jobs?view=waiting");
    await expect(page.getByRole("listitem", { name: `Job ${E2E_FAILED_JOBS[1].id}` })).toHaveCount(0);
    await page.goto("/admin/jobs?view=failed");
    await expect(page.getByRole("listitem", { name: `Job ${E2E_FAILED_JOBS[1].id}` })).toHaveCount(0);
  }).toPass({ timeout: 15_000 });
  await page.goto("/audit?action=job.retried");
  await expect(page.getByText("job.retried").first()).toBeVisible();
});

test("only admins may open the jobs page", async ({ page, signInAs }) => {
  await signInAs("LEAD");
  await page.goto("/admin/jobs");
  await expect(page.getByRole("heading", { name: "Jobs", level: 1 })).toHaveCount(0);
  await expect(page.getByText(/not allowed|forbidden|403/i).first()).toBeVisible();
});
