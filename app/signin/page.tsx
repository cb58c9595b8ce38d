import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignedOutPage } from "@/components/brand";
import { safeCallbackUrl } from "@/lib/auth/public-paths";
import { oidcConnection } from "@/lib/auth/oidc-settings";
import { currentUser } from "@/lib/auth/session";
import { env } from "@/lib/env";
import { oidcSignInAction } from "./actions";
import { messageForErrorParam } from "./messages";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

type TSearchParams = Promise<Record<string, string | string[] | undefined>>;

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function SignInPage({ searchParams }: { searchParams: TSearchParams }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(first(params.callbackUrl));
  // Checked against the database, not just the cookie: a revoked session lands here and must be
  // able to sign in again rather than bounce back.
  if (await currentUser()) redirect(callbackUrl);
  const provider = oidcConnection(env());

  return (
    <SignedOutPage
      title="Sign in"
      footer={<p className="mt-4 text-center text-xs text-slate-500">Accounts are created by an admin. Ask yours if you cannot sign in.</p>}
    >
      <p className="mt-1 mb-5 text-[13px] text-slate-500">The agent drafts; you countersign.</p>
      <SignInForm callbackUrl={callbackUrl} initialError={messageForErrorParam(first(params.error), first(params.code))} />
      {provider && (
        <form action={oidcSignInAction} className="mt-4 border-t border-slate-200 pt-4">
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          <button
            type="submit"
            className="inline-flex h-9 w-full items-center justify-center rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 shadow-xs hover:bg-slate-50"
          >
            Continue with {provider.name}
          </button>
        </form>
      )}
    </SignedOutPage>
  );
}
