// A draft's or a version in review's evaluation before publishing, for the version's page: what the
// latest evaluation of its exact content found, its progress while it runs, "Evaluate this version",
// and "Acknowledge regressions" for whoever may publish. Mounted by the version's page with the
// version's id, content hash and state; a version past review shows nothing here.
import type { DocumentStatus } from "@/generated/prisma/enums";
import { requireRole } from "@/lib/auth/session";
import { ROLE_LABELS, roleAtLeast } from "@/lib/contracts/roles";
import { loadVersionEvaluation } from "@/lib/documents/evaluate-load";
import { loadPolicySettings } from "@/lib/policy/settings";
import { EvaluationView } from "./evaluation-view";

export async function EvaluationPanel({
  documentId,
  contentHash,
  status,
}: {
  documentId: string;
  contentHash: string;
  status: DocumentStatus;
}) {
  if (status !== "draft" && status !== "in_review") return null;
  const user = await requireRole("documents");
  const [evaluation, settings] = await Promise.all([loadVersionEvaluation({ documentId, contentHash }), loadPolicySettings()]);
  const least = settings["documents.publishRole"];
  // The domain decides again on the click (acknowledgeRegression); the page says beforehand who may.
  const mayAcknowledge = roleAtLeast(user.role, least)
    ? ({ allowed: true } as const)
    : ({
        allowed: false,
        why: `Acknowledging regressions needs the role ${ROLE_LABELS[least].toLowerCase()} or higher, as publishing does.`,
      } as const);
  return <EvaluationView documentId={documentId} evaluation={evaluation} mayAcknowledge={mayAcknowledge} />;
}
