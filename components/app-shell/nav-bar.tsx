"use client";
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useLayoutEffect, useRef, useState } from "react";
import { isCurrentNav } from "@/lib/auth/nav";
import { linksThatFit } from "./nav-fit";

export interface TNavLink {
  href: string;
  label: string;
}

/** Space between two entries of the bar (gap-1), in pixels: the same in the bar and in its measure. */
const GAP = 4;
const ENTRY = "flex items-center border-b-2 px-2.5 py-3 text-[13px] font-medium whitespace-nowrap transition-colors";
const underline = (current: boolean) =>
  current ? "border-indigo-600 text-slate-900" : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900";
const MENU_ITEM =
  "flex cursor-default items-center rounded px-2 py-1.5 text-slate-700 outline-none select-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900 aria-[current=page]:font-semibold aria-[current=page]:text-indigo-700";

function Chevron() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="ml-1 size-3.5 text-slate-400">
      <path d="M4 6l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** The links the bar has no room for, in a menu; the button is underlined when the current page is among them. */
function MoreMenu({ items, pathname }: { items: readonly TNavLink[]; pathname: string }) {
  const holdsCurrent = items.some((item) => isCurrentNav(item.href, pathname));
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className={`${ENTRY} ${underline(holdsCurrent)} data-[state=open]:text-slate-900`}>
        More
        <Chevron />
      </DropdownMenu.Trigger>
      <DropdownMenu.Content
        align="end"
        sideOffset={4}
        className="z-50 min-w-44 rounded-md border border-slate-200 bg-white p-1 text-sm shadow-lg focus:outline-none"
      >
        {items.map((item) => (
          <DropdownMenu.Item key={item.href} asChild className={MENU_ITEM}>
            <Link href={item.href} prefetch={false} aria-current={isCurrentNav(item.href, pathname) ? "page" : undefined}>
              {item.label}
            </Link>
          </DropdownMenu.Item>
        ))}
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

/** Keeps `shown` at the number of links the bar has room for, measured on an invisible copy of the
 * entries: their widths do not change with the number shown, so laying out again cannot oscillate. */
function useLinksThatFit(count: number) {
  const bar = useRef<HTMLUListElement>(null);
  const measure = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState<number | null>(null);
  useLayoutEffect(() => {
    const row = bar.current;
    const copy = measure.current;
    if (!row || !copy) return;
    // A ResizeObserver reports once on observe, after layout and before paint, and again on any change.
    const observer = new ResizeObserver(() => {
      const widths = [...copy.children].map((entry) => Math.ceil(entry.getBoundingClientRect().width));
      const more = widths.pop() ?? 0;
      setShown(linksThatFit({ available: Math.floor(row.clientWidth), widths, gap: GAP, more }));
    });
    observer.observe(row);
    observer.observe(copy);
    return () => observer.disconnect();
  }, [count]);
  return { bar, measure, shown };
}

/** The areas this user may open (the server decides which); the current one is marked for screen
 * readers too. The links that do not fit the bar's width go into a More menu. */
export function NavBar({ items }: { items: readonly TNavLink[] }) {
  const pathname = usePathname();
  const { bar, measure, shown } = useLinksThatFit(items.length);
  const inBar = shown === null ? items : items.slice(0, shown);
  return (
    <nav aria-label="Main" className="relative -mb-px flex min-w-0">
      {/* Until measured (the server's HTML) every link is laid out and the overflow clipped. */}
      <ul ref={bar} className={`flex min-w-0 flex-1 items-stretch gap-1 ${shown === null ? "overflow-hidden" : ""}`}>
        {inBar.map((item) => {
          const current = isCurrentNav(item.href, pathname);
          return (
            <li key={item.href} className="flex">
              {/* No prefetch: a prefetch still in flight when the person signs out can come back with a
                  refreshed session cookie and sign them in again. */}
              <Link
                href={item.href}
                prefetch={false}
                aria-current={current ? "page" : undefined}
                className={`${ENTRY} ${underline(current)}`}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
        {inBar.length < items.length ? (
          <li className="flex">
            <MoreMenu items={items.slice(inBar.length)} pathname={pathname} />
          </li>
        ) : null}
      </ul>
      {/* The measure: every entry and the More button at their natural width, clipped so it widens nothing. */}
      <div aria-hidden="true" className="pointer-events-none invisible absolute inset-0 overflow-hidden">
        <div ref={measure} className="flex w-max">
          {items.map((item) => (
            <span key={item.href} className={`${ENTRY} border-transparent`}>
              {item.label}
            </span>
          ))}
          <span className={`${ENTRY} border-transparent`}>
            More
            <Chevron />
          </span>
        </div>
      </div>
    </nav>
  );
}
