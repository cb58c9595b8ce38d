import type { Metadata } from "next";
import { Card } from "@/components/card";
import { formatUtc } from "@/components/format";
import { PageHeader } from "@/components/page-header";
import { listUsers } from "@/lib/auth/list-users";
import { ROLE_LABELS } from "@/lib/contracts/roles";
import { requireRole } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { loadSettingChanges } from "@/lib/policy/settings-changes";
import { loadPolicySettings, policyVersion } from "@/lib/policy/settings";
import { RevokeSessionsForm } from "./revoke-sessions-form";
import { SettingsForm } from "./settings-form";
import { settingsToValues } from "./settings-fields";

export const metadata: Metadata = { title: "Admin" };

export default async function AdminPage() {
  await requireRole("admin");
  const [settings, changes, users] = await Promise.all([loadPolicySettings(db()), loadSettingChanges(db()), listUsers()]);
  const version = policyVersion(settings);
  const lastChanged = Object.fromEntries(Object.entries(changes).map(([key, c]) => [key, `Last changed ${formatUtc(c.at, "minute")}${c.by ? ` by ${c.by.name}` : ""}.`]));

  return (
    <>
      <PageHeader title="Admin" description="Policy settings and the people who use Countersign." />
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card
          bodyClassName="px-4 pb-3"
          id="settings-heading"
          title="Policy settings"
          description={
            <>
              <p>
                Policy version in force: <code data-testid="policy-version" className="font-mono text-slate-800">{version}</code>
              </p>
              <p>Saving a change makes a new version; approvals waiting under the previous one go stale and must be run again.</p>
            </>
          }
        >
          <SettingsForm initial={settingsToValues(settings)} policyVersion={version} lastChanged={lastChanged} />
        </Card>

        <Card
          bodyClassName="px-4 pb-3"
          id="users-heading"
          title={`Users (${users.length})`}
          description={
            <p>
              An admin can sign a person out everywhere: each session they hold ends at its next request. New users are added from the command line with <code className="font-mono text-slate-800">npm run user:add</code>, for example{" "}
              <code className="font-mono text-slate-800">npm run user:add -- --email dana@yourco.example --role SPECIALIST</code>; the password is read from a prompt.
            </p>
          }
        >
          <div className="overflow-x-auto">
            <table className="w-full text-left text-[13px]">
              <thead>
                <tr className="border-b border-slate-100 text-[12px] text-slate-500">
                  <th scope="col" className="py-2 pr-3 font-medium">Email</th>
                  {/* Narrow screens: the name and an inactive mark go under the email, so the sign-out control fits. */}
                  <th scope="col" className="hidden py-2 pr-3 font-medium sm:table-cell">Name</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Role</th>
                  <th scope="col" className="hidden py-2 pr-3 font-medium sm:table-cell">Active</th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">Sessions</th>
                  <th scope="col" className="py-2 text-right font-medium">
                    <span className="sr-only">Sign out</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {users.map((u) => (
                  <tr key={u.id} className={u.active ? "" : "text-slate-400"}>
                    <td className="py-1.5 pr-3">
                      <span className="block font-mono text-[12px] break-all sm:break-normal">{u.email}</span>
                      <span className="block text-[12px] text-slate-500 sm:hidden">
                        {u.name}
                        {u.active ? "" : " · inactive"}
                      </span>
                    </td>
                    <td className="hidden py-1.5 pr-3 sm:table-cell">{u.name}</td>
                    <td className="py-1.5 pr-3">{ROLE_LABELS[u.role]}</td>
                    <td className="hidden py-1.5 pr-3 sm:table-cell">{u.active ? "Yes" : "No"}</td>
                    <td data-testid="live-sessions" className="py-1.5 pr-3 text-right tabular-nums">
                      {u.liveSessions}
                    </td>
                    <td className="py-1.5">
                      <RevokeSessionsForm userId={u.id} email={u.email} liveSessions={u.liveSessions} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      </div>
    </>
  );
}
