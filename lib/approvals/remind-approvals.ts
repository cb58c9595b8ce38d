// The reminder before expiry: pending requests that expire within the lead time (a notification
// setting) and were not reminded yet get their reminder job, each in one statement that records
// `remindedAt` and writes the job together. So a request is reminded once, however many sweeps run
// at once (the row's update lets one through), and a recorded reminder always has its job. Nothing is
// recorded while no webhook is configured: a request still pending when one is set is reminded then.
import { db as defaultDb, type Db } from "../db";
import { sendingJobCte } from "../jobs/queue";
import { APPROVAL_NOTIFY_JOB } from "../jobs/definitions";
import { APPROVAL_NOTIFICATIONS, notificationJobId } from "../contracts/approval-notification";
import { remindedCte } from "./store/approval-store";
import { loadNotificationSettings, NOTIFY_LEAD_KEY, NOTIFY_URL_KEY } from "../policy/notification-settings";

export async function remindExpiringApprovals(input: { client?: Db; now?: Date } = {}): Promise<{ reminded: number }> {
  const client = input.client ?? defaultDb();
  const now = input.now ?? new Date();
  const settings = await loadNotificationSettings(client);
  if (!settings[NOTIFY_URL_KEY]) return { reminded: 0 };
  const until = new Date(now.getTime() + settings[NOTIFY_LEAD_KEY] * 60_000);
  // Not yet expired (the expiry sweep takes those), expiring within the lead time, not reminded.
  const due = await client.approvalRequest.findMany({
    where: { status: "pending", remindedAt: null, expiresAt: { gt: now, lte: until } },
    select: { id: true },
    orderBy: { expiresAt: "asc" },
    take: 1000,
  });
  // A timestamp column without time zone reads the ISO string as the UTC wall-clock time it names.
  const at = now.toISOString();
  let reminded = 0;
  for (const request of due) {
    const event = APPROVAL_NOTIFICATIONS.expiring;
    const [row] = await sendingJobCte(
      {
        name: "job",
        source: "reminded",
        job: APPROVAL_NOTIFY_JOB,
        data: { approvalId: request.id, event },
        id: notificationJobId(event, request.id),
      },
      (job) =>
        client.$queryRaw<{ n: number }[]>`
        WITH ${remindedCte(request.id, at)}, ${job}
        SELECT count(*)::int AS n FROM reminded`,
    );
    reminded += row!.n;
  }
  return { reminded };
}
