// The new-ticket form and the admin page, in a real browser against the real server.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./fixtures";

const TICKET_URL = /\/tickets\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test.describe("new ticket form", () => {
  test("a reviewer creates a ticket and lands on its page, admitted", async ({ page, signInAs }) => {
    await signInAs("REVIEWER");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "New ticket", exact: true }).click();
    await expect(page.getByRole("heading", { name: "New ticket", level: 1 })).toBeVisible();
    await page.getByLabel("Customer email").fill("form.customer@example.net");
    await page.getByLabel("Order number").fill("ORD-1004");
    await page.getByLabel("Subject").fill("Speaker hums after two weeks (typed in)");
    await page.getByLabel("Message").fill("My bookshelf speaker stopped working and only hums now. What can you do?");
    await page.getByRole("button", { name: "Create ticket" }).click();

    await expect(page).toHaveURL(TICKET_URL);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Speaker hums after two weeks (typed in)");
    const admission = page.getByRole("region", { name: "Admission" });
    await expect(admission).toContainText("admitted");
    await expect(admission).toContainText("guarded_agent");
    await expect(page.getByRole("region", { name: "Ticket" })).toContainText("form.customer@example.net");
    // Created by the person who typed it, not by the system.
    await expect(page.getByRole("region", { name: /Audit events/ })).toContainText(
      "Riley Reviewer entered a ticket in the new-ticket form.",
    );
  });

  test("a chargeback threat is bypassed to a person with classifier_human_review", async ({ page, signInAs }) => {
    await signInAs("REVIEWER");
    await page.goto("/tickets/new");
    await page.getByLabel("Customer email").fill("angry.customer@example.net");
    await page.getByLabel("Subject").fill("Refund now or I go to my bank (typed in)");
    await page.getByLabel("Message").fill("If I do not get my money back today I will file a chargeback with my bank.");
    await page.getByRole("button", { name: "Create ticket" }).click();

    await expect(page).toHaveURL(TICKET_URL);
    const admission = page.getByRole("region", { name: "Admission" });
    await expect(admission).toContainText("bypassed");
    await expect(admission).toContainText("classifier_human_review");
    await expect(admission).toContainText("human_review_now");
  });

  test("a bad email shows a field error and keeps every field", async ({ page, signInAs }) => {
    await signInAs("REVIEWER");
    await page.goto("/tickets/new");
    const fields = {
      "Customer email": "not-an-email",
      "Order number": "ORD-1004",
      Subject: "Kept on error (typed in)",
      Message: "Every word here must survive a refused submission.",
    };
    for (const [label, value] of Object.entries(fields)) await page.getByLabel(label).fill(value);
    await page.getByRole("button", { name: "Create ticket" }).click();

    const email = page.getByLabel("Customer email");
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Enter the customer's email address, like name@example.com.")).toBeVisible();
    // The error is tied to the field for assistive technology, and nothing typed is lost.
    await expect(email).toHaveAccessibleDescription(/Enter the customer's email address/);
    for (const [label, value] of Object.entries(fields)) await expect(page.getByLabel(label)).toHaveValue(value);
    await expect(page.getByLabel("Subject")).not.toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/tickets\/new$/);

    // Corrected, the same form goes through.
    await email.fill("kept.on.error@example.net");
    await page.getByRole("button", { name: "Create ticket" }).click();
    await expect(page).toHaveURL(TICKET_URL);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Kept on error (typed in)");
  });
});

test.describe("admin", () => {
  test("an admin changes the daily cap and sees the new policy version", async ({ page, signInAs }) => {
    await signInAs("ADMIN");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Admin", level: 1 })).toBeVisible();
    const version = page.getByTestId("policy-version");
    const before = (await version.textContent())!;
    expect(before).toMatch(/^refund-policy-v1\+[0-9a-f]{10}$/);

    // Every setting labelled in words; amounts in USD with cents (the settings store cents).
    const cap = page.getByLabel("Daily cap on auto-approved refunds");
    await expect(cap).toHaveValue(/^\d+\.\d{2}$/);
    await expect(page.getByLabel("Specialist approval threshold")).toHaveValue(/^\d+\.\d{2}$/);
    // The dial is shown but moved only on the Autonomy page, where raising it needs shadow evidence.
    const dial = page.getByLabel("Auto-approve limit (the autonomy dial)");
    await expect(dial).toHaveValue(/^\d+\.\d{2}$/);
    await expect(dial).not.toBeEditable();
    await expect(page.getByRole("link", { name: "Move the dial on the Autonomy page" })).toHaveAttribute("href", "/autonomy");
    await expect(page.getByLabel("Shadow agreements needed to raise the dial")).toHaveValue(/^\d+$/);
    await expect(page.getByLabel("Refund proposals per customer per day")).toHaveValue(/^\d+$/);
    await expect(page.getByLabel("Default planner")).toHaveValue(/^(rule|model)$/);
    const original = await cap.inputValue();
    const threshold = await page.getByLabel("Specialist approval threshold").inputValue();
    const changed = original === "650.50" ? "650.25" : "650.50";

    await cap.fill(changed);
    await page.getByRole("button", { name: "Save settings" }).click();
    const message = page.getByTestId("settings-message");
    await expect(message).toContainText("Saved: daily cap on auto-approved refunds.");
    await expect(version).not.toHaveText(before);
    const after = (await version.textContent())!;
    expect(after).toMatch(/^refund-policy-v1\+[0-9a-f]{10}$/);
    await expect(message).toContainText(after);

    // Stored in cents, shown again in USD after a reload.
    await page.reload();
    await expect(page.getByLabel("Daily cap on auto-approved refunds")).toHaveValue(changed);
    await expect(version).toHaveText(after);
    await expect(page.getByText(/Last changed .* by Ada Admin/)).toBeVisible();

    // A value out of range is refused beside its field, and what was typed stays.
    await page.getByLabel("Specialist approval threshold").fill("0");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("Must be more than 0.00.")).toBeVisible();
    await expect(page.getByLabel("Specialist approval threshold")).toHaveValue("0");
    await expect(version).toHaveText(after);

    // Back to the values before: the version is a function of the settings, so it returns too.
    await page.getByLabel("Specialist approval threshold").fill(threshold);
    await page.getByLabel("Daily cap on auto-approved refunds").fill(original);
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(version).toHaveText(before);
  });

  test("an admin points notifications at a webhook; a waiting approval is announced there, and its link asks a stranger to sign in", async ({
    page,
    signInAs,
    browser,
  }) => {
    test.setTimeout(90_000);
    const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    // By name: the test server allows "localhost" (NOTIFY_WEBHOOK_ALLOWED_HOSTS), not loopback addresses.
    const url = `http://localhost:${(receiver.address() as AddressInfo).port}/services/T9/B9/e2e-token`;
    const secret = "e2e notification secret, thirty-two characters or more";
    try {
      await signInAs("ADMIN");
      await page.goto("/admin");
      const form = page.getByRole("form", { name: "Notifications" });
      await expect(form).toContainText("Off: no URL set");
      // Refused beside its field, nothing saved.
      await form.getByLabel("Reminder before expiry, in minutes").fill("0");
      await form.getByRole("button", { name: "Save notifications" }).click();
      await expect(form.getByText("From 1 to 1440 minutes (a day).")).toBeVisible();
      await expect(form.getByLabel("Reminder before expiry, in minutes")).toHaveAttribute("aria-invalid", "true");
      // A URL without a secret: refused whole, and what was typed stays.
      await form.getByLabel("Reminder before expiry, in minutes").fill("90");
      await form.getByLabel("Webhook URL").fill(url);
      await form.getByRole("button", { name: "Save notifications" }).click();
      await expect(page.getByTestId("notification-message")).toContainText("a webhook URL needs a signing secret");
      await expect(form.getByLabel("Webhook URL")).toHaveValue(url);
      await form.getByLabel("Signing secret").fill(secret);
      // An internal target (the database's port on loopback) is refused, saying why; nothing is saved.
      await form.getByLabel("Webhook URL").fill("http://127.0.0.1:5432/");
      await form.getByRole("button", { name: "Save notifications" }).click();
      await expect(page.getByTestId("notification-message")).toContainText("must not point at an internal address");
      await form.getByLabel("Webhook URL").fill(url);
      await form.getByRole("button", { name: "Save notifications" }).click();
      await expect(page.getByTestId("notification-message")).toHaveText("Saved: webhook URL, signing secret, reminder lead time.");
      await expect(form.getByLabel("Signing secret")).toHaveValue("");
      // Shown back by origin and fingerprint only: neither the secret nor the URL's token is in the page.
      await page.reload();
      await expect(form).toContainText(`Sending to ${new URL(url).origin}`);
      await expect(form).toContainText(/Set \(fingerprint [0-9a-f]{12}\)/);
      await expect(form.getByLabel("Webhook URL")).toHaveValue("");
      await expect(form.getByLabel("Signing secret")).toHaveValue("");
      await expect(form.getByLabel("Reminder before expiry, in minutes")).toHaveValue("90");
      const html = await page.content();
      expect(html).not.toContain(secret);
      expect(html).not.toContain("e2e-token");

      // A ticket whose run stops at an approval: announced by the server's own worker.
      await page.goto("/tickets/new");
      await page.getByLabel("Customer email").fill("priya.nair@example.net");
      await page.getByLabel("Order number").fill("ORD-1004");
      await page.getByLabel("Subject").fill("Notified: when does my refund arrive?");
      await page.getByLabel("Message").fill("How long until an approved refund reaches my card?");
      await page.getByRole("button", { name: "Create ticket" }).click();
      await expect(page).toHaveURL(TICKET_URL);
      const ticketUrl = page.url();
      await page.getByRole("button", { name: "Run agent" }).click();
      await expect(page.getByRole("form", { name: "Decision" }).getByRole("button", { name: "Approve" })).toBeEnabled({ timeout: 20_000 });
      await expect.poll(() => received.length, { timeout: 20_000 }).toBe(1);
      const [delivery] = received;
      expect(delivery!.headers["webhook-id"]).toMatch(/^approval\.waiting\.[0-9a-f-]{36}$/);
      expect(delivery!.headers["webhook-signature"]).toMatch(/^v1,/);
      const body = JSON.parse(delivery!.body);
      const ticketPath = new URL(ticketUrl).pathname;
      expect(body.text).toMatch(/^Approval waiting: ticket #\d+, a reply to the customer, needs a reviewer's approval\./);
      expect(body.countersign.ticket.url).toMatch(new RegExp(`${ticketPath}$`));
      expect(delivery!.body).not.toContain(secret);
      expect(delivery!.body).not.toContain("priya.nair");

      // The link opens nothing without a session: a stranger is asked to sign in.
      const stranger = await browser.newContext();
      const visit = await stranger.newPage();
      await visit.goto(ticketPath);
      await expect(visit).toHaveURL(/\/signin/);
      await stranger.close();
    } finally {
      // Off again, for the specs that follow on this server.
      await page.goto("/admin");
      const form = page.getByRole("form", { name: "Notifications" });
      if (await form.getByLabel("Stop notifications (forget the URL)").isVisible()) {
        await form.getByLabel("Stop notifications (forget the URL)").check();
        await form.getByLabel("Reminder before expiry, in minutes").fill("60");
        await form.getByRole("button", { name: "Save notifications" }).click();
        await expect(page.getByTestId("notification-message")).toContainText("Saved: webhook URL");
      }
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  test("the admin page counts the people and leads to the Users page, which lists them", async ({ page, signInAs }) => {
    await signInAs("ADMIN");
    await page.goto("/admin");
    const people = page.getByRole("region", { name: /People/ });
    await expect(people).toContainText("of them admins");
    await people.getByRole("link", { name: "Manage people" }).click();
    await expect(page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
    const reviewer = page.getByRole("row", { name: /reviewer@example\.com/ });
    await expect(reviewer).toContainText("Riley Reviewer");
    await expect(reviewer).toContainText("Active");
    await expect(reviewer.getByLabel("Role of reviewer@example.com", { exact: true })).toHaveValue("REVIEWER");
  });

  test("a reviewer gets 403 on /admin", async ({ page, signInAs }) => {
    await signInAs("REVIEWER");
    const response = await page.goto("/admin");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Admin", level: 1 })).toHaveCount(0);
    await expect(page.getByLabel("Daily cap on auto-approved refunds")).toHaveCount(0);
  });
});
