// The jobs page: admins see what the job queue holds and retry a job that failed for good; nobody
// else sees it.
import { E2E_FAILED_JOBS } from "../prisma/seed/e2e";
import { expect, test } from "./fixtures";

test("an admin sees a failed job with its error and retries it", async ({ page, signInAs }) => {
  await signInAs("ADMIN");
  await page.goto("/admin/jobs");
  await expect(page.getByRole("heading", { name: "Jobs", level: 1 })).toBeVisible();
  const job = page.getByRole("listitem", { name: `Job ${E2E_FAILED_JOBS[1].id}` });
  await expect(job).toContainText("refund-execute");
  await expect(job).toContainText(`Error: settleApprovedRefund: no approval ${E2E_FAILED_JOBS[1].approvalId}`);
  await job.getByRole("button", { name: "Retry" }).click();
  await expect(job.getByRole("button", { name: "Queued again" })).toBeVisible();
  await page.reload();
  // Out of the failed list: back in the queue (and, its approval missing, on its way to failing again).
  await expect(page.getByRole("listitem", { name: `Job ${E2E_FAILED_JOBS[1].id}` })).toHaveCount(0);
  await page.goto("/audit");
  await expect(page.getByText("job.retried").first()).toBeVisible();
});

test("only admins may open the jobs page", async ({ page, signInAs }) => {
  await signInAs("LEAD");
  await page.goto("/admin/jobs");
  await expect(page.getByRole("heading", { name: "Jobs", level: 1 })).toHaveCount(0);
  await expect(page.getByText(/not allowed|forbidden|403/i).first()).toBeVisible();
});
