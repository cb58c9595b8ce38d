// How long a session lives, on both sides of it: the cookie (next-auth's maxAge, rolling while in use)
// and the server's row (UserSession.lastSeenAt). Plain constants, so the job worker's sweep can read
// them without loading next-auth.

/** A reviewer's shift and a little more: sessions end after 12 hours without use. */
export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

/**
 * How stale a session's lastSeenAt may get before a request moves it: one write per session every
 * few minutes, not one per request. A session in use is therefore judged idle up to this much early.
 */
export const SESSION_TOUCH_SECONDS = 5 * 60;

/** Sessions last seen before this instant have been idle past their lifetime: refused, and swept. */
export function sessionIdleCutoff(now: Date): Date {
  return new Date(now.getTime() - SESSION_MAX_AGE_SECONDS * 1000);
}
