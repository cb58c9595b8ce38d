import type { Metadata } from "next";
import { Card } from "@/components/card";
import { PageHeader } from "@/components/page-header";
import { listUsers } from "@/lib/auth/list-users";
import { loadSsoPolicy, oidcConnection } from "@/lib/auth/oidc-settings";
import { requireRole } from "@/lib/auth/session";
import { ROLE_LABELS } from "@/lib/contracts/roles";
import { env } from "@/lib/env";
import { SsoForm } from "./sso-form";

export const metadata: Metadata = { title: "Sign-in" };

export default async function SignInSettingsPage() {
  const me = await requireRole("admin");
  const connection = oidcConnection(env());
  const [policy, users] = await Promise.all([loadSsoPolicy(), listUsers()]);
  const admins = users.filter((u) => u.active && u.role === "ADMIN").map((u) => ({ id: u.id, email: u.email, name: u.name }));
  const mapped = connection ? [...connection.roleMap].map(([group, role]) => `${group} → ${ROLE_LABELS[role]}`) : [];

  return (
    <>
      <PageHeader
        title="Sign-in"
        description="How people sign in: with a password, through your identity provider (OpenID Connect), or both. Every change here is in the audit log."
      />
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
        <Card bodyClassName="px-4 py-3 text-sm text-slate-800" id="provider-heading" title="Identity provider">
          {connection ? (
            <dl className="space-y-2">
              <div>
                <dt className="text-[12px] text-slate-600">Issuer</dt>
                <dd className="font-mono text-[13px] break-all">{connection.issuer}</dd>
              </div>
              <div>
                <dt className="text-[12px] text-slate-600">Client id</dt>
                <dd className="font-mono text-[13px] break-all">{connection.clientId}</dd>
              </div>
              <div>
                <dt className="text-[12px] text-slate-600">Roles from the claim “{connection.roleClaim}”</dt>
                <dd>{mapped.length > 0 ? mapped.join(", ") : "Not mapped: each account keeps the role an admin gives it."}</dd>
              </div>
            </dl>
          ) : (
            <p>No identity provider is configured: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.</p>
          )}
        </Card>
        <Card bodyClassName="px-4 py-3" id="policy-heading" title="Sign-in policy">
          <SsoForm policy={policy} admins={admins} meId={me.id} />
        </Card>
      </div>
    </>
  );
}
