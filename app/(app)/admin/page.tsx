import type { Metadata } from "next";
import Link from "next/link";
import { Card } from "@/components/card";
import { formatUtc } from "@/components/format";
import { PageHeader } from "@/components/page-header";
import { listUsers } from "@/lib/auth/list-users";
import { requireRole } from "@/lib/auth/session";
import { loadSettingChanges } from "@/lib/policy/settings-changes";
import { DECIDES_REFUNDS, loadPolicySettings, policyVersion } from "@/lib/policy/settings";
import { llmAvailability } from "@/lib/llm/provider";
import { describeNotificationSettings, loadNotificationSettings } from "@/lib/policy/notification-settings";
import { SettingsForm } from "./settings-form";
import { NotificationForm } from "./notification-form";
import { EraseCustomerForm } from "./erase-customer-form";
import { LegalHoldForm, RequestExportForm } from "./customer-data-forms";
import { listSubjectExports, type TExportListing } from "@/lib/privacy/export-subject";
import { SETTING_FIELDS, settingsToValues, type TModelPlannerState } from "./settings-fields";

export const metadata: Metadata = { title: "Admin" };

/** The settings whose change stales no approval, by key. */
const KEEPS_VERSION = SETTING_FIELDS.filter((f) => !DECIDES_REFUNDS[f.key]).map((f) => f.key);

/** Whether the model planner can run, and why not: never its configuration (the key stays here). */
function modelPlannerState(): TModelPlannerState {
  const llm = llmAvailability();
  return llm.available ? { available: true } : { available: false, reason: llm.reason };
}

export default async function AdminPage() {
  await requireRole("admin");
  const [settings, notifications, changes, users, exports] = await Promise.all([
    loadPolicySettings(),
    loadNotificationSettings(),
    loadSettingChanges(),
    listUsers(),
    listSubjectExports(),
  ]);
  const version = policyVersion(settings);
  const lastChanged = Object.fromEntries(
    Object.entries(changes).map(([key, c]) => [key, `Last changed ${formatUtc(c.at, "minute")}${c.by ? ` by ${c.by.name}` : ""}.`]),
  );

  return (
    <>
      <PageHeader title="Admin" description="Policy settings, notifications and the people who use Countersign." />
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card
          bodyClassName="px-4 pb-3"
          id="settings-heading"
          title="Policy settings"
          description={
            <>
              <p>
                Policy version in force:{" "}
                <code data-testid="policy-version" className="font-mono text-slate-800">
                  {version}
                </code>
              </p>
              <p>
                Saving a change to a setting that decides refunds makes a new version; approvals waiting under the previous one go stale and
                must be run again. A setting marked as deciding no refund keeps the version.
              </p>
            </>
          }
        >
          <SettingsForm
            initial={settingsToValues(settings)}
            policyVersion={version}
            lastChanged={lastChanged}
            model={modelPlannerState()}
            keepsVersion={KEEPS_VERSION}
          />
        </Card>

        <div className="flex min-w-0 flex-col gap-4">
          <Card bodyClassName="px-4 py-3 text-[13px] text-slate-700" id="users-heading" title={`People (${users.length})`}>
            <p>
              {users.filter((u) => u.active).length} active, {users.filter((u) => u.role === "ADMIN" && u.active).length} of them admins.{" "}
              <Link href="/admin/users" className="font-medium text-slate-900 underline underline-offset-2">
                Manage people
              </Link>
              : add someone with a set-password link, change a role, deactivate, sign out everywhere.
            </p>
          </Card>

          <Card
            bodyClassName="px-4 py-3"
            id="notifications-heading"
            title="Notifications"
            description="A message to a webhook when an approval starts waiting, and again before it expires: the ticket's link, what waits and for whom. Deciding still needs sign-in."
          >
            {/* Only what identifies the URL and the secret reaches the browser, never either of them. */}
            <NotificationForm current={describeNotificationSettings(notifications)} lastChanged={lastChanged} />
          </Card>

          <Card
            bodyClassName="px-4 py-3"
            id="erasure-heading"
            title="Erase a customer"
            description="Their name, address and every text their tickets left are erased everywhere; amounts, digests, signatures and times stay, and the audit trail still verifies. Refused while a refund of theirs is in flight or under a legal hold."
          >
            <EraseCustomerForm />
          </Card>

          <Card
            bodyClassName="px-4 py-3 space-y-4"
            id="customer-data-heading"
            title="A customer's data"
            description="A legal hold suspends a customer's erasure and the retention of their tickets until it is lifted. An export gathers everything held about them as JSON; it can be downloaded once."
          >
            <LegalHoldForm />
            <RequestExportForm />
            <ExportList exports={exports} />
          </Card>
        </div>
      </div>
    </>
  );
}

const EXPORT_STATES: Record<TExportListing["status"], string> = {
  pending: "Being gathered",
  ready: "Ready",
  downloaded: "Downloaded",
  discarded: "Discarded (the customer was erased)",
};

/** The latest exports: a ready one is offered for its one download; the others say where they are. */
function ExportList({ exports }: { exports: TExportListing[] }) {
  if (exports.length === 0) return <p className="text-[13px] text-slate-600">No exports yet.</p>;
  return (
    <ul aria-label="Data exports, newest first" className="divide-y divide-slate-100 text-[13px] text-slate-700">
      {exports.map((e) => (
        <li key={e.id} className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 py-1.5">
          <span className="min-w-0 break-all font-mono text-slate-800">{e.customerId}</span>
          <span>
            {EXPORT_STATES[e.status]}, requested {formatUtc(e.createdAt, "minute")}
            {e.status === "ready" ? (
              <>
                {" · "}
                <a href={`/api/admin/exports/${e.id}`} className="font-medium text-slate-900 underline underline-offset-2" download>
                  Download (once)
                </a>
              </>
            ) : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
