// One signed message to the notification webhook (the approvals' announcements, the daily series'
// alerts): Standard Webhooks headers with the notification secret and a fresh timestamp, the target
// checked again now (a name may resolve elsewhere than when it was saved) and connected to the
// address checked. Anything but a 2xx throws, so the caller's job is retried. Errors name the
// receiver by origin only: a webhook URL's path may be its credential, and errors reach Admin → Jobs.
import { signWebhook } from "../intake/webhook-signature";
import { NOTIFY_SECRET_KEY, NOTIFY_URL_KEY, type TNotificationSettings } from "../policy/notification-settings";
import { checkWebhookTarget } from "../policy/webhook-target";
import { postToTarget } from "./post-webhook";

/** How long one attempt waits for the receiver's answer: well inside the job's lock time. */
export const NOTIFY_TIMEOUT_MS = 10_000;

export async function postNotification(input: {
  settings: TNotificationSettings;
  /** The webhook-id: the same for every attempt at one message. */
  id: string;
  body: unknown;
  /** Names the message in errors. */
  what: string;
  now?: () => Date;
}): Promise<void> {
  const url = input.settings[NOTIFY_URL_KEY];
  const payload = JSON.stringify(input.body);
  const headers = signWebhook({
    secret: input.settings[NOTIFY_SECRET_KEY],
    id: input.id,
    timestamp: (input.now ?? (() => new Date()))(),
    payload,
  });
  const origin = new URL(url).origin;
  const verdict = await checkWebhookTarget(url);
  if (!verdict.ok) throw new Error(`${input.what}: ${origin} refused: ${verdict.why}`);
  const outcome = await postToTarget({
    target: verdict.target,
    headers: { "content-type": "application/json", ...headers },
    body: payload,
    timeoutMs: NOTIFY_TIMEOUT_MS,
  });
  if (outcome.status === null) throw new Error(`${input.what}: delivery to ${origin} failed (no HTTP answer)`);
  if (outcome.status < 200 || outcome.status >= 300) throw new Error(`${input.what}: ${origin} answered ${outcome.status}`);
}
