// A sign-in's last step, whichever way the person proved who they are (a password, the identity
// provider): the session's row, the server's half of the cookie, exists before the cookie does, and
// the sign-in's event names it.
import "server-only";
import { randomUUID } from "node:crypto";
import { recordAuditEvent } from "../audit/record-audit-event";
import type { Role } from "../contracts/roles";
import { db } from "../db";

export interface TVerifiedUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  sessionVersion: number;
  /** The UserSession row this sign-in opened: the cookie names it, sign-out revokes it. */
  sessionId: string;
}

// A user agent is shown to the person beside their session, nothing more: a long one is cut.
const MAX_USER_AGENT = 300;

export async function openSession(
  user: Omit<TVerifiedUser, "sessionId">,
  input: { address?: string | null; userAgent?: string | null; now: Date; via?: Record<string, unknown> },
): Promise<TVerifiedUser> {
  const sessionId = randomUUID();
  await db().$transaction(async (tx) => {
    await recordAuditEvent(tx, {
      actorType: "user",
      actorId: user.id,
      action: "auth.signed_in",
      subjectType: "user",
      subjectId: user.id,
      inputs: { address: input.address ?? null, session: sessionId, ...input.via },
    });
    await tx.userSession.create({
      data: {
        id: sessionId,
        userId: user.id,
        createdAt: input.now,
        lastSeenAt: input.now,
        userAgent: input.userAgent?.slice(0, MAX_USER_AGENT) || null,
      },
    });
  });
  return { id: user.id, email: user.email, name: user.name, role: user.role, sessionVersion: user.sessionVersion, sessionId };
}
