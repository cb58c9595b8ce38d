// Queue search: by order id, by a fragment of the customer's email, by a word of the message.
import { createHmac } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { E2E_BUNDLE_KEY, expect, test, webhookHeaders } from "./fixtures";

const BUNDLE = "intake-rules-2026.11";
const letters = () => Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");

async function deliver(request: APIRequestContext, input: { subject: string; body: string; customerEmail: string; orderId: string }) {
  const externalId = `e2e-search-${Date.now()}-${letters()}`;
  const route = "human_review_now";
  const routeSignature = createHmac("sha256", E2E_BUNDLE_KEY).update(`${externalId}\n${route}\n${BUNDLE}`).digest("hex");
  const raw = JSON.stringify({ externalId, ...input, route, bundleVersion: BUNDLE, routeSignature });
  const response = await request.post("/api/intake/tickets", { data: Buffer.from(raw), headers: webhookHeaders(raw) });
  expect(response.status()).toBe(201);
  return (await response.json()) as { ticketId: string; number: number };
}

async function search(page: import("@playwright/test").Page, text: string) {
  await page.getByRole("searchbox", { name: "Search tickets" }).fill(text);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(text).replace(/%20/g, "\\+")}`));
  return page.getByRole("table", { name: `Tickets matching “${text}”, newest first` });
}

test("search finds a ticket by its order id, and marks it", async ({ page, signInAs }) => {
  await signInAs("REVIEWER");
  const results = await search(page, "ORD-1002");
  const row = results.getByRole("row").filter({ hasText: "Laptop arrived with a cracked screen" });
  await expect(row).toHaveCount(1);
  // Marked in the order id's line and in the message around it.
  await expect(row).toContainText("Order ORD-1002");
  await expect(row.locator("mark", { hasText: "ORD-1002" })).toHaveCount(2);
  await expect(results.getByRole("row").filter({ hasText: "Tablet arrived with a cracked screen" })).toHaveCount(0);
});

test("search finds a ticket by a fragment of the customer's email", async ({ page, signInAs, request }) => {
  const who = letters();
  const opened = await deliver(request, {
    subject: `Kettle leaks ${who}`,
    body: "Water comes out of the base.",
    customerEmail: `jo.${who}@example.net`,
    orderId: "ORD-1004",
  });
  await signInAs("REVIEWER");
  const results = await search(page, who.slice(1, 6));
  const row = results.getByRole("row").filter({ hasText: `Kettle leaks ${who}` });
  await expect(row).toContainText(`#${opened.number}`);
  await expect(row.locator("mark", { hasText: who.slice(1, 6) }).first()).toBeVisible();
});

test("search finds a ticket by a word of its message", async ({ page, signInAs, request }) => {
  const word = `zq${letters()}`;
  await deliver(request, {
    subject: "Toaster question",
    body: `The toaster makes a ${word} noise when it pops.`,
    customerEmail: "priya.nair@example.net",
    orderId: "ORD-1004",
  });
  await signInAs("REVIEWER");
  const results = await search(page, word);
  const row = results.getByRole("row").filter({ hasText: "Toaster question" });
  await expect(row).toHaveCount(1);
  await expect(row.locator("mark", { hasText: word })).toBeVisible();
  await expect(row).toContainText(`makes a ${word} noise`);
});
