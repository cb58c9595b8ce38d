// The facts version-moves.ts decides on, read from a document's versions.
import type { DocumentStatus } from "@/generated/prisma/enums";
import type { TVersionFacts } from "./version-moves";

interface TVersionLike {
  version: number;
  status: DocumentStatus;
  author: { id: string; name: string } | null;
  submittedBy: { id: string } | null;
}

export function versionFacts(
  history: { versions: readonly { version: number; status: DocumentStatus }[] },
  v: TVersionLike,
): TVersionFacts {
  return {
    status: v.status,
    authorId: v.author?.id ?? null,
    authorName: v.author?.name ?? null,
    submittedById: v.submittedBy?.id ?? null,
    keyHasPublished: history.versions.some((o) => o.status === "published"),
  };
}
