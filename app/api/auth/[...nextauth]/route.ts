// next-auth's endpoints (session, csrf, sign-out, the credentials callback). Public in proxy.ts;
// the credentials callback goes through the same throttle as the sign-in form.
import { handlers } from "@/lib/auth/auth";

export const { GET, POST } = handlers;
