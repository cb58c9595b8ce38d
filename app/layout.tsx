import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Countersign", template: "%s · Countersign" },
  description: "An AI support agent drafts refund tickets; a person countersigns every consequential action.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-dvh font-sans text-sm">{children}</body>
    </html>
  );
}
