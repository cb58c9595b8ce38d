// What every document function checks first, and the words they share: the caller's role, the audit
// subject of a document (one stream per key, so a document's history reads in order), and the
// least role that may publish. The rules of each move are in its own file.
import type { Role } from "../../generated/prisma/enums";
import { AppError } from "../contracts/app-error";
import { mayUse, roleAtLeast, ROLE_LABELS } from "../contracts/roles";
import type { TAuditInput } from "../audit/record-audit-event";
import type { TPolicySettings } from "../policy/settings";
import type { DbTx } from "../db";

/** The person calling, as the session (or the command line) established them. */
export interface TDocumentActor {
  id: string;
  role: Role;
}

/** Refuses a caller whose role has no part in policy documents at all. */
export function assertDocumentsArea(actor: TDocumentActor): void {
  if (!mayUse(actor.role, "documents")) throw new AppError("forbidden", "Your role may not work on policy documents.");
}

/** Refuses a caller below the least role the settings allow to publish or retire (`documents.publishRole`). */
export function assertMayPublish(actor: TDocumentActor, settings: TPolicySettings, doing: string): void {
  const least = settings["documents.publishRole"];
  if (!roleAtLeast(actor.role, least))
    throw new AppError(
      "role_insufficient",
      `${doing} needs the role ${ROLE_LABELS[least].toLowerCase()} or higher (the setting documents.publishRole); yours is ${ROLE_LABELS[actor.role].toLowerCase()}.`,
    );
}

/** An event about a document: its stream is the key's, whatever version it names. */
export function documentEvent(
  actor: TDocumentActor,
  action: TAuditInput["action"],
  docKey: string,
  inputs: Record<string, unknown>,
): TAuditInput {
  return { actorType: "user", actorId: actor.id, action, subjectType: "document", subjectId: docKey, inputs: { docKey, ...inputs } };
}

/** One version's row, locked for the transaction (null when there is no such version). */
export async function lockVersionRow(tx: DbTx, documentId: string) {
  const [row] = await tx.$queryRaw<{ id: string }[]>`SELECT "id"::text FROM "PolicyDocument" WHERE "id" = ${documentId}::uuid FOR UPDATE`;
  if (!row) return null;
  return tx.policyDocument.findUniqueOrThrow({ where: { id: documentId } });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Refuses an id that is not one (a typed URL), before the database is asked. */
export function assertDocumentId(documentId: string): void {
  if (!UUID.test(documentId)) throw new AppError("not_found", "No such policy version.");
}
