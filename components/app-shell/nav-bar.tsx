"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { isCurrentNav } from "@/lib/auth/nav";

export interface TNavLink {
  href: string;
  label: string;
}

/** The areas this user may open (the server decides which); the current one is marked for screen readers too. */
export function NavBar({ items }: { items: readonly TNavLink[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="-mb-px flex min-w-0 overflow-x-auto [scrollbar-width:none]">
      <ul className="flex items-stretch gap-1">
        {items.map((item) => {
          const current = isCurrentNav(item.href, pathname);
          return (
            <li key={item.href} className="flex">
              {/* No prefetch: a prefetch still in flight when the person signs out can come back with a
                  refreshed session cookie and sign them in again. */}
              <Link
                href={item.href}
                prefetch={false}
                aria-current={current ? "page" : undefined}
                className={`flex items-center border-b-2 px-2.5 py-3 text-[13px] font-medium whitespace-nowrap transition-colors ${
                  current ? "border-indigo-600 text-slate-900" : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"
                }`}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
