// An admin adds a person: the account is created with a password nobody knows, and a set-password
// link (password-link.ts) is returned for the admin to pass on. The admin never types or sees the
// person's password.
import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { plainText } from "../contracts/text";
import { recordAuditEvent } from "../audit/record-audit-event";
import { AppError } from "../contracts/app-error";
import { mayUse, ROLES, type Role } from "../contracts/roles";
import { db as defaultDb, isUniqueViolation, type Db } from "../db";
import { invalidUserInput } from "./add-user";
import { hashPassword } from "./password";
import { issuePasswordLink } from "./password-link";

export const ZInvitation = z.object({
  // A form's stray spaces and capitals are not part of an address.
  email: z.preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase() : v), z.email("must be an email address").max(320)),
  role: z.enum(ROLES, { message: `must be one of ${ROLES.join(", ")}` }),
  name: plainText(z.string().trim().min(1, "must not be empty").max(120)),
});

export async function inviteUser(input: {
  email: string;
  role: string;
  name: string;
  actor: { id: string; role: Role };
  now: Date;
  client?: Db;
}): Promise<{ user: { id: string; email: string; name: string; role: Role }; token: string; expiresAt: Date }> {
  if (!mayUse(input.actor.role, "admin")) throw new AppError("forbidden", "Only an admin may add people.");
  const parsed = ZInvitation.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidUserInput(String(issue.path[0]), issue.message);
  }
  const { email, role, name } = parsed.data;
  // A password nobody knows, hashed like any other, so until the link is used the account refuses
  // every sign-in and takes as long to refuse as any account does.
  const passwordHash = await hashPassword(randomBytes(32).toString("base64url"));
  const client = input.client ?? defaultDb();
  try {
    return await client.$transaction(async (tx) => {
      const user = await tx.user.create({
        data: { email, role, name, passwordHash, passwordPending: true },
        select: { id: true, email: true, name: true, role: true },
      });
      const link = await issuePasswordLink(tx, { userId: user.id, issuedById: input.actor.id, now: input.now });
      await recordAuditEvent(tx, {
        actorType: "user",
        actorId: input.actor.id,
        action: "user.invited",
        subjectType: "user",
        subjectId: user.id,
        inputs: { email, role, name, linkExpiresAt: link.expiresAt.toISOString() },
      });
      return { user, ...link };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidUserInput("email", `a user with ${email} already exists`);
    throw error;
  }
}
