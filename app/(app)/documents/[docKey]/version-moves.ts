// What the signed-in person may do with one version, and, for each move they may not make, why – so
// a button is disabled with its reason instead of failing after the click. The rules are the
// documents part's (lib/documents: save-draft, submit-for-review, withdraw-from-review,
// publish-version, retire-document), which enforce them whatever a page shows;
// version-moves.integration.test.ts holds this file to them by calling each function. Publishing,
// whose rules read the evaluation too, is not judged here at all: the page passes the documents
// part's own answer (findPublishRefusal), the sentence the server would refuse the click with.
import type { DocumentStatus, Role } from "@/generated/prisma/enums";
import { mayUse, ROLE_LABELS, roleAtLeast } from "@/lib/contracts/roles";
import type { TPublishRefusal } from "@/lib/documents/publish-refusal";

export const MOVES = ["edit", "newVersion", "submit", "withdraw", "publish", "retire"] as const;
export type TMove = (typeof MOVES)[number];

/** A move the version's state offers: allowed, or refused with the sentence the page shows. */
export type TMoveAnswer = { allowed: true } | { allowed: false; why: string };

export interface TVersionFacts {
  status: DocumentStatus;
  authorId: string | null;
  authorName: string | null;
  submittedById: string | null;
  /** Whether the key has a version published (in effect or scheduled): what retiring retires. */
  keyHasPublished: boolean;
}

const ALLOWED: TMoveAnswer = { allowed: true };
const refuse = (why: string): TMoveAnswer => ({ allowed: false, why });
const lower = (role: Role) => ROLE_LABELS[role].toLowerCase();

function publishRoleProblem(role: Role, publishRole: Role, doing: string): TMoveAnswer | null {
  if (roleAtLeast(role, publishRole)) return null;
  return refuse(`Your role cannot ${doing}: the setting allows ${lower(publishRole)} and above, and you are a ${lower(role)}.`);
}

/**
 * The moves this version's state offers, each allowed or refused with its reason; a move the state
 * does not offer at all (publishing a draft) is absent. `publishRefusal` is findPublishRefusal's
 * answer for this person and version in review; a page that offers no publish leaves it out.
 */
export function versionMoves(
  v: TVersionFacts,
  user: { id: string; role: Role },
  publishRole: Role,
  publishRefusal?: TPublishRefusal | null,
): Partial<Record<TMove, TMoveAnswer>> {
  const writer = mayUse(user.role, "writeDocuments");
  const notWriter = refuse(`Your role cannot write policy documents: specialists, leads and admins do, and you are a ${lower(user.role)}.`);
  const moves: Partial<Record<TMove, TMoveAnswer>> = {};
  if (v.status === "draft") {
    moves.edit = !writer
      ? notWriter
      : v.authorId !== null && v.authorId !== user.id
        ? refuse(`Only its author, ${v.authorName ?? "another person"}, may edit this draft: write a version of your own instead.`)
        : ALLOWED;
    moves.submit = writer ? ALLOWED : notWriter;
  }
  if (v.status !== "draft") moves.newVersion = writer ? ALLOWED : notWriter;
  if (v.status === "in_review") {
    moves.withdraw =
      user.id === v.authorId || user.id === v.submittedById
        ? ALLOWED
        : (publishRoleProblem(user.role, publishRole, "withdraw someone else's version") ?? ALLOWED);
    if (publishRefusal !== undefined) moves.publish = publishRefusal ? refuse(publishRefusal.message) : ALLOWED;
  }
  if (v.keyHasPublished) moves.retire = publishRoleProblem(user.role, publishRole, "retire a document") ?? ALLOWED;
  return moves;
}
