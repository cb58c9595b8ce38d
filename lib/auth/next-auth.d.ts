// What Countersign keeps in the session. The JWT carries the user id (sub), the role, the
// sessionVersion it was minted with and the id of its UserSession row (sid); currentUser compares the
// version with the User row (bumping it revokes every session the user holds) and refuses a session
// whose row is revoked, missing or idle past its lifetime.
import type { Role } from "../contracts/roles";

declare module "@auth/core/types" {
  interface User {
    role?: Role;
    sessionVersion?: number;
    /** The UserSession row minted at sign-in. */
    sessionId?: string;
  }
  interface Session {
    user: {
      id: string;
      email: string;
      name: string;
      role: Role;
      sessionVersion: number;
      sessionId: string;
    };
  }
}

declare module "@auth/core/jwt" {
  interface JWT {
    role?: Role;
    /** User.sessionVersion when the token was minted. */
    sv?: number;
    /** The id of the UserSession row minted with the token. */
    sid?: string;
  }
}
