// What Countersign keeps in the session. The JWT carries the user id (sub), the role and the
// sessionVersion it was minted with; requireRole compares that version with the User row, so bumping
// User.sessionVersion revokes every session the user holds.
import type { Role } from "../contracts/roles";

declare module "@auth/core/types" {
  interface User {
    role?: Role;
    sessionVersion?: number;
  }
  interface Session {
    user: {
      id: string;
      email: string;
      name: string;
      role: Role;
      sessionVersion: number;
    };
  }
}

declare module "@auth/core/jwt" {
  interface JWT {
    role?: Role;
    /** User.sessionVersion when the token was minted. */
    sv?: number;
  }
}
