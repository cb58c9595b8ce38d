// The audit trail as a signed JSON Lines download, whole or for a time range (the audit page's From
// and To), verifiable offline: npm run audit:verify -- --file EXPORT --pubkey KEY. Leads and admins;
// addresses and session ids are redacted unless an admin asks for the security export (?security=1,
// refused 403 to anyone else by exportAuditTrail).
import { z } from "zod";
import { authedRoute } from "@/lib/auth/authed";
import { exportAuditTrail } from "@/lib/audit/audit-export";
import { ZInstant } from "@/lib/audit/search-audit";
import { streamedDownload } from "@/lib/http/download";

export const dynamic = "force-dynamic";

const ZExportRange = z
  .object({ from: ZInstant, to: ZInstant, security: z.enum(["1"], { message: "must be 1 (the security export) or absent" }).optional() })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ["to"], message: "must be on or after the start" });

const instant = (local: string | undefined) => (local ? new Date(`${local}Z`) : undefined);

export const GET = authedRoute({ area: "audit", input: ZExportRange }, async ({ input, user }) => {
  const lines = exportAuditTrail({
    actor: user,
    from: instant(input.from),
    to: instant(input.to),
    security: input.security === "1",
  });
  // The first line is read before answering: the export is audited (and the signing key loaded) then,
  // so a failure there is an error answer rather than a broken download.
  const first = await lines.next();
  const day = new Date().toISOString().slice(0, 10);
  return streamedDownload(lines, {
    contentType: "application/jsonl; charset=utf-8",
    filename: `countersign-audit-${input.security ? "security-" : ""}${day}.jsonl`,
    what: "audit export",
    first: first.done ? undefined : first.value,
  });
});
