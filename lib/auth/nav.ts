// The navigation bar's entries, each tied to the area whose roles may open it. A role sees only what
// it may use; the pages check again.
import type { Area, Role } from "../contracts/roles";
import { mayUse } from "../contracts/roles";

export interface TNavItem {
  href: string;
  label: string;
  area: Area;
}

export const NAV_ITEMS: readonly TNavItem[] = [
  { href: "/", label: "Queue", area: "queue" },
  { href: "/tickets/new", label: "New ticket", area: "newTicket" },
  { href: "/ledger", label: "Ledger", area: "ledger" },
  { href: "/deliveries", label: "Deliveries", area: "tickets" },
  { href: "/documents", label: "Policies", area: "documents" },
  { href: "/annotations", label: "Annotations", area: "annotate" },
  { href: "/audit", label: "Audit", area: "audit" },
  { href: "/evals", label: "Evaluations", area: "evals" },
  { href: "/autonomy", label: "Autonomy", area: "autonomy" },
  { href: "/admin", label: "Admin", area: "admin" },
  { href: "/admin/users", label: "Users", area: "admin" },
  { href: "/admin/sign-in", label: "Sign-in", area: "admin" },
  { href: "/admin/jobs", label: "Jobs", area: "admin" },
];

export function navItemsFor(role: Role): TNavItem[] {
  return NAV_ITEMS.filter((item) => mayUse(role, item.area));
}

const within = (href: string, pathname: string) => pathname === href || pathname.startsWith(`${href}/`);

/** Whether a nav entry is the current page: "/" only for itself, the others for their subtree unless
 * a deeper entry (Jobs under Admin) is the current one. */
export function isCurrentNav(href: string, pathname: string): boolean {
  if (href === "/") return pathname === "/";
  return (
    within(href, pathname) &&
    !NAV_ITEMS.some((i) => i.href.length > href.length && i.href.startsWith(`${href}/`) && within(i.href, pathname))
  );
}
