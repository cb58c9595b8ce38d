import type { ReactNode } from "react";
import { AppShell } from "@/components/app-shell/app-shell";
import { navItemsFor } from "@/lib/auth/nav";
import { ROLE_LABELS } from "@/lib/contracts/roles";
import { requireUser } from "@/lib/auth/session";
import { signOutAction, signOutEverywhereAction } from "./actions";
import { Providers } from "./providers";

// Every page here reads the session: never prerender.
export const dynamic = "force-dynamic";

export default async function SignedInLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const nav = navItemsFor(user.role).map(({ href, label }) => ({ href, label }));
  return (
    <AppShell
      user={{ name: user.name, email: user.email, roleLabel: ROLE_LABELS[user.role] }}
      nav={nav}
      signOutAction={signOutAction}
      signOutEverywhereAction={signOutEverywhereAction}
    >
      <Providers>{children}</Providers>
    </AppShell>
  );
}
