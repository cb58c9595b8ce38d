"use server";
// The sign-in settings page's action: how people sign in through the identity provider. The domain
// function re-checks the admin and refuses a requirement that would lock every admin out.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authedAction } from "@/lib/auth/authed";
import { oidcConnection } from "@/lib/auth/oidc-settings";
import { updateSsoPolicy } from "@/lib/auth/update-sso-policy";
import { ROLES } from "@/lib/contracts/roles";
import { env } from "@/lib/env";

const checkbox = z
  .enum(["on"])
  .optional()
  .transform((v) => v === "on");

export const updateSsoPolicyAction = authedAction(
  {
    area: "admin",
    input: z.object({
      requireSso: checkbox,
      createOnFirstSignIn: checkbox,
      defaultRole: z.enum(ROLES),
      breakGlassUserId: z.union([z.uuid(), z.literal("")]).transform((v) => v || null),
    }),
  },
  async ({ input, user }) => {
    const policy = await updateSsoPolicy({ policy: input, actor: user, oidcConfigured: oidcConnection(env()) !== null });
    revalidatePath("/admin/sign-in");
    return { requireSso: policy.requireSso };
  },
);
