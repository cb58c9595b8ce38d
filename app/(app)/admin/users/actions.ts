"use server";
// The Users page's actions: add a person (a set-password link comes back, shown once), a new link,
// a role, deactivate or reactivate, sign out everywhere. Each domain function re-checks that the
// caller is an admin, audits in the same transaction, and keeps one active admin.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { plainText } from "@/lib/contracts/text";
import { authedAction } from "@/lib/auth/authed";
import { changeUserRole } from "@/lib/auth/change-user-role";
import { inviteUser } from "@/lib/auth/invite-user";
import { SET_PASSWORD_PATH } from "@/lib/auth/password-link";
import { reissuePasswordLink } from "@/lib/auth/reissue-password-link";
import { revokeUserSessions } from "@/lib/auth/revoke-user-sessions";
import { setUserActive } from "@/lib/auth/set-user-active";
import { ROLES } from "@/lib/contracts/roles";

const USERS_PATH = "/admin/users";
const ZUserId = z.object({ userId: z.uuid() });

/** Adds a person; answers the set-password link's path, the only time the token exists. */
export const inviteUserAction = authedAction(
  {
    area: "admin",
    input: z.object({
      email: plainText(z.string().max(320), { label: "The email address" }),
      name: plainText(z.string().max(120), { label: "The name" }),
      role: z.enum(ROLES),
    }),
  },
  async ({ input, user }) => {
    const invited = await inviteUser({ ...input, actor: user, now: new Date() });
    revalidatePath(USERS_PATH);
    return { email: invited.user.email, linkPath: `${SET_PASSWORD_PATH}/${invited.token}`, expiresAt: invited.expiresAt.toISOString() };
  },
);

export const reissuePasswordLinkAction = authedAction({ area: "admin", input: ZUserId }, async ({ input, user }) => {
  const link = await reissuePasswordLink({ userId: input.userId, actor: user, now: new Date() });
  return { email: link.email, linkPath: `${SET_PASSWORD_PATH}/${link.token}`, expiresAt: link.expiresAt.toISOString() };
});

export const changeUserRoleAction = authedAction(
  { area: "admin", input: ZUserId.extend({ role: z.enum(ROLES) }) },
  async ({ input, user }) => {
    const result = await changeUserRole({ userId: input.userId, role: input.role, actor: user });
    revalidatePath(USERS_PATH);
    return result;
  },
);

export const setUserActiveAction = authedAction(
  { area: "admin", input: ZUserId.extend({ active: z.enum(["true", "false"]).transform((v) => v === "true") }) },
  async ({ input, user }) => {
    const result = await setUserActive({ userId: input.userId, active: input.active, actor: user, now: new Date() });
    revalidatePath(USERS_PATH);
    return result;
  },
);

/** Signs a user out everywhere: every live session revoked, audited with the admin's id. */
export const revokeUserSessionsAction = authedAction({ area: "admin", input: ZUserId }, async ({ input, user }) => {
  const result = await revokeUserSessions({ userId: input.userId, actor: user, now: new Date() });
  revalidatePath(USERS_PATH);
  return result;
});
