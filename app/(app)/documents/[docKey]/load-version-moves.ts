// The moves a page offers with a version, Publish judged by the documents part itself (findPublishRefusal:
// its rules and the evaluation's gate), so the button says exactly what the server would refuse.
import "server-only";
import type { Role } from "@/generated/prisma/enums";
import { findPublishRefusal } from "@/lib/documents/publish-refusal";
import { versionFacts } from "./version-facts";
import { versionMoves, type TMove, type TMoveAnswer } from "./version-moves";

export async function loadVersionMoves(
  history: Parameters<typeof versionFacts>[0],
  version: Parameters<typeof versionFacts>[1] & { id: string },
  user: { id: string; role: Role },
  publishRole: Role,
): Promise<Partial<Record<TMove, TMoveAnswer>>> {
  const publishRefusal = version.status === "in_review" ? await findPublishRefusal({ documentId: version.id, actor: user }) : null;
  return versionMoves(versionFacts(history, version), user, publishRole, publishRefusal);
}
