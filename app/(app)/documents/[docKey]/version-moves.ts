// What the signed-in person may do with one version, and, for each move they may not make, why – so
// a button is disabled with its reason instead of failing after the click. The rules are the
// documents part's (lib/documents: save-draft, submit-for-review, withdraw-from-review,
// publish-version, retire-document), which enforce them whatever a page shows;
// version-moves.integration.test.ts holds this file to them by calling each function.
import type { DocumentStatus, Role } from "@/generated/prisma/enums";
import { mayUse, ROLE_LABELS, roleAtLeast } from "@/lib/contracts/roles";

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
  /** Whether a later version of the key was published already: this one can no longer be. */
  newerPublished: boolean;
}

const ALLOWED: TMoveAnswer = { allowed: true };
const refuse = (why: string): TMoveAnswer => ({ allowed: false, why });
const lower = (role: Role) => ROLE_LABELS[role].toLowerCase();

function publishRoleProblem(role: Role, publishRole: Role, doing: string): TMoveAnswer | null {
  if (roleAtLeast(role, publishRole)) return null;
  return refuse(`Your role cannot ${doing}: the setting allows ${lower(publishRole)} and above, and you are a ${lower(role)}.`);
}

function publishAnswer(v: TVersionFacts, user: { id: string; role: Role }, publishRole: Role): TMoveAnswer {
  if (user.id === v.authorId) return refuse("You wrote this version: another person must publish it.");
  if (user.id === v.submittedById) return refuse("You sent this version to review: another person must publish it.");
  if (v.newerPublished) return refuse("A later version of this document is published already.");
  return publishRoleProblem(user.role, publishRole, "publish") ?? ALLOWED;
}

/**
 * The moves this version's state offers, each allowed or refused with its reason; a move the state
 * does not offer at all (publishing a draft) is absent.
 */
export function versionMoves(v: TVersionFacts, user: { id: string; role: Role }, publishRole: Role): Partial<Record<TMove, TMoveAnswer>> {
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
    moves.publish = publishAnswer(v, user, publishRole);
  }
  if (v.keyHasPublished) moves.retire = publishRoleProblem(user.role, publishRole, "retire a document") ?? ALLOWED;
  return moves;
}
