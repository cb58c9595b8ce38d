import type { Metadata } from "next";
import Link from "next/link";
import { SignedOutPage } from "@/components/brand";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password";
import { PASSWORD_LINK_HOURS } from "@/lib/auth/password-link";
import { describePasswordLink } from "@/lib/auth/set-password-with-link";
import { SetPasswordForm } from "./set-password-form";

export const metadata: Metadata = { title: "Set your password", referrer: "no-referrer" };

const WHY = {
  link_unusable: "This link no longer works: it was used already, replaced by a newer one, or its person was deactivated.",
  link_expired: `This link has expired: links work for ${PASSWORD_LINK_HOURS} hours.`,
} as const;

export default async function SetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const link = await describePasswordLink({ token, now: new Date() });
  return (
    <SignedOutPage title="Set your password">
      {link.status === "usable" ? (
        <>
          <p className="mt-1 mb-5 text-[13px] break-all text-slate-600">
            For <span className="font-medium text-slate-900">{link.email}</span>. This link works once.
          </p>
          <SetPasswordForm token={token} email={link.email} minLength={MIN_PASSWORD_LENGTH} />
        </>
      ) : (
        <p className="mt-2 text-[13px] text-slate-700">
          {WHY[link.status]} Ask an admin for a new link, or{" "}
          <Link href="/signin" className="font-medium text-indigo-700 underline underline-offset-2">
            sign in
          </Link>{" "}
          if your password is set.
        </p>
      )}
    </SignedOutPage>
  );
}
