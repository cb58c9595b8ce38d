import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Countersign", template: "%s · Countersign" },
  description: "An AI support agent drafts refund tickets; a person countersigns every consequential action.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: Next stamps the request's CSP nonce (proxy.ts) on its scripts
  // only while rendering, and a page prerendered at build time would carry none – its scripts would
  // be blocked.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-dvh font-sans text-sm">{children}</body>
    </html>
  );
}
