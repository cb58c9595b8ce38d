import type { Metadata } from "next";
import { Card } from "@/components/card";
import { formatUtc } from "@/components/format";
import { PageHeader } from "@/components/page-header";
import { Cell, CardRow, ResponsiveTable, type TColumn } from "@/components/responsive-table";
import { listUsers } from "@/lib/auth/list-users";
import { PASSWORD_LINK_HOURS } from "@/lib/auth/password-link";
import { requireRole } from "@/lib/auth/session";
import { ROLE_LABELS } from "@/lib/contracts/roles";
import { InviteUserForm } from "./invite-user-form";
import { RevokeSessionsForm } from "./revoke-sessions-form";
import { UserControls } from "./user-controls";

export const metadata: Metadata = { title: "Users" };

const COLUMNS: readonly TColumn[] = ["Person", "Role", "Status", { label: "Sessions", align: "right" }, "Actions"];

export default async function UsersPage() {
  const me = await requireRole("admin");
  const users = await listUsers();
  const activeAdmins = users.filter((u) => u.active && u.role === "ADMIN").length;

  return (
    <>
      <PageHeader
        title="Users"
        description={`The people who use Countersign. Add someone and pass on the set-password link they get: it works once, for ${PASSWORD_LINK_HOURS} hours. Every change here is in the audit log.`}
      />
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-[minmax(0,2fr)_minmax(0,5fr)]">
        <Card bodyClassName="px-4 py-3" id="invite-heading" title="Add a person">
          <InviteUserForm />
        </Card>
        <section aria-labelledby="people-heading" className="min-w-0">
          <h2 id="people-heading" className="mb-2 text-[13px] font-semibold text-slate-900">
            People ({users.length})
          </h2>
          <ResponsiveTable caption="People, active first, most privileged first" columns={COLUMNS}>
            {users.map((u) => (
              <CardRow key={u.id} className={u.active ? "" : "bg-slate-50"}>
                <Cell rowHeader className="order-first col-span-2 font-normal md:order-none md:col-span-1">
                  <span className="block font-medium break-all text-slate-900">{u.name}</span>
                  <span className="block font-mono text-[12px] break-all text-slate-600">{u.email}</span>
                  <span className="block text-[12px] text-slate-600">Added {formatUtc(u.createdAt, "minute")}</span>
                </Cell>
                <Cell label="Role">{ROLE_LABELS[u.role]}</Cell>
                <Cell label="Status">
                  {u.active ? (
                    <span className="text-slate-900">Active</span>
                  ) : (
                    <span className="rounded bg-slate-200 px-1.5 py-0.5 text-[12px] font-medium text-slate-800">Deactivated</span>
                  )}
                  {u.id === me.id ? <span className="block text-[12px] text-slate-600">You</span> : null}
                </Cell>
                <Cell label="Sessions" className="tabular-nums md:text-right">
                  <span data-testid="live-sessions">{u.liveSessions}</span>
                </Cell>
                <Cell label="Actions" className="col-span-2 md:col-span-1">
                  <div className="flex flex-wrap items-start gap-2">
                    <UserControls
                      user={{ id: u.id, email: u.email, role: u.role, active: u.active }}
                      cannotDeactivate={
                        u.id === me.id
                          ? "You cannot deactivate yourself: ask another admin"
                          : u.active && u.role === "ADMIN" && activeAdmins <= 1
                            ? "The only active admin cannot be deactivated"
                            : null
                      }
                    />
                    <RevokeSessionsForm userId={u.id} email={u.email} liveSessions={u.liveSessions} />
                  </div>
                </Cell>
              </CardRow>
            ))}
          </ResponsiveTable>
        </section>
      </div>
    </>
  );
}
