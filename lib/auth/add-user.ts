// Creates a real user (the demo users exist only in the demo seed). Used by `npm run user:add`.
import { z } from "zod";
import { AppError } from "../contracts/app-error";
import { db, isUniqueViolation } from "../db";
import { recordAuditEvent, type ActorType } from "../audit/record-audit-event";
import { hashPassword, MIN_PASSWORD_LENGTH } from "./password";
import { ROLES } from "../contracts/roles";

/** A refused input, named by its field: an AppError `invalid` whose message says which field. */
export function invalidUserInput(field: string, problem: string): AppError<"invalid"> {
  return new AppError("invalid", `Invalid ${field}: ${problem}`, field);
}

export const ZNewUser = z.object({
  email: z.email("must be an email address").transform((e) => e.trim().toLowerCase()),
  role: z.enum(ROLES, { message: `must be one of ${ROLES.join(", ")}` }),
  name: z.string().trim().min(1).max(120).optional(),
  password: z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(1024),
});

export async function addUser(
  input: { email: string; role: string; name?: string; password: string },
  actor: { type: ActorType; id: string },
) {
  const parsed = ZNewUser.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidUserInput(String(issue.path[0]), issue.message);
  }
  const { email, role, password } = parsed.data;
  const name = parsed.data.name ?? email.split("@")[0]!;
  const passwordHash = await hashPassword(password);
  try {
    return await db().$transaction(async (tx) => {
      const user = await tx.user.create({
        data: { email, role, name, passwordHash },
        select: { id: true, email: true, role: true, name: true },
      });
      await recordAuditEvent(tx, {
        actorType: actor.type,
        actorId: actor.id,
        action: "user.created",
        subjectType: "user",
        subjectId: user.id,
        inputs: { email, role, name },
      });
      return user;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidUserInput("email", `a user with ${email} already exists`);
    throw error;
  }
}
