import Link from "next/link";
import { Fragment } from "react";

/** Where a page sits: each level above it a link, the page itself last, as plain text. */
export function Breadcrumbs({ trail, current }: { trail: { href: string; label: string }[]; current: string }) {
  return (
    <nav aria-label="Breadcrumb" className="text-[12px] text-slate-500">
      {trail.map(({ href, label }) => (
        <Fragment key={href}>
          <Link href={href} className="hover:underline">
            {label}
          </Link>{" "}
          /{" "}
        </Fragment>
      ))}
      {current}
    </nav>
  );
}
