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

/**
 * How old the session cookie's token may get before the proxy has next-auth reissue it (a fresh token
 * whose expiry is SESSION_MAX_AGE_SECONDS from then): once every few minutes per session rather than
 * on every request, each of which re-encrypted the token and sent a new cookie. A cookie in use
 * therefore expires up to this much early, as the server's row may be judged idle up to
 * SESSION_TOUCH_SECONDS early.
 */
export const SESSION_REISSUE_SECONDS = SESSION_TOUCH_SECONDS;
