import Link from "next/link";
import type { ReactNode } from "react";
import { Brand } from "../brand";
import { NavBar, type TNavLink } from "./nav-bar";
import { UserMenu } from "./user-menu";

export interface TShellUser {
  name: string;
  email: string;
  roleLabel: string;
}

/** The frame around every signed-in page: brand, the areas this user may open, the user menu. */
export function AppShell({
  user,
  nav,
  signOutAction,
  signOutEverywhereAction,
  children,
}: {
  user: TShellUser;
  nav: readonly TNavLink[];
  signOutAction: () => Promise<void>;
  signOutEverywhereAction: (form: FormData) => Promise<unknown>;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-40 border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center gap-x-6 px-4 sm:flex-nowrap">
          <Link href="/" prefetch={false} className="order-1 flex h-12 items-center rounded-sm" aria-label="Countersign, home">
            <Brand />
          </Link>
          {/* Below sm the links take a row of their own; what does not fit goes into the bar's More menu. */}
          <div className="order-3 w-full min-w-0 border-t border-slate-100 sm:order-2 sm:w-auto sm:flex-1 sm:border-t-0">
            <NavBar items={nav} />
          </div>
          <div className="order-2 ml-auto flex h-12 items-center sm:order-3">
            <UserMenu
              name={user.name}
              email={user.email}
              roleLabel={user.roleLabel}
              signOutAction={signOutAction}
              signOutEverywhereAction={signOutEverywhereAction}
            />
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-screen-2xl flex-1 px-4 py-5">
        {children}
      </main>
    </div>
  );
}
