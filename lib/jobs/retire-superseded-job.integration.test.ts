// The routine job that retires published versions a scheduled version has superseded (PGlite, and
// PostgreSQL with DATABASE_URL): scheduled every minute by the worker; a version whose time has come
// retires the one it replaces, as of that time, audited as the system's; a version still to come
// retires nothing; a second run changes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../prisma/seed/demo";
import { useTestDb } from "../../testing/db";
import { draftVersion, finishedEvaluation, policyMarkdown, publishedVersion } from "../../testing/evaluations";
import { drainQueue } from "../../testing/queue";
import { newUser } from "../../testing/runs";
import { publishVersion } from "../documents/publish-version";
import { submitForReview } from "../documents/submit-for-review";
import { RETIRE_SUPERSEDED_JOB } from "./definitions";
import { enqueue, QUEUE_SCHEMA, QUEUES } from "./queue";
import { startWorker } from "./worker";

const testDb = useTestDb(seedDemo);
type TPerson = Awaited<ReturnType<typeof newUser>>;
let author: TPerson, lead: TPerson, otherLead: TPerson;

beforeAll(async () => {
  const { client } = testDb();
  [author, lead, otherLead] = [await newUser(client, "SPECIALIST"), await newUser(client, "LEAD"), await newUser(client, "LEAD")];
});

const markdown = (key: string, words: string) => policyMarkdown({ key, title: `Policy ${key}`, section: "Returns", paragraphs: [words] });

/** v1 of `key` published now, v2 published by `otherLead` to take effect in an hour; v2's id. */
async function scheduledSecondVersion(key: string): Promise<string> {
  const { client } = testDb();
  await publishedVersion(client, { author, publisher: lead }, markdown(key, "Returns within 30 days."));
  const v2 = await draftVersion(client, author, markdown(key, "Returns within 45 days."));
  await submitForReview({ documentId: v2, actor: author, client });
  await finishedEvaluation(client, v2, author.id);
  await publishVersion({ documentId: v2, actor: otherLead, effectiveAt: new Date(Date.now() + 3600_000), client });
  return v2;
}

/** Every version of the keys, with its state and who retired it when, and the retirement events. */
async function snapshot(keys: string[]) {
  const { client } = testDb();
  const versions = await client.policyDocument.findMany({
    where: { docKey: { in: keys } },
    select: { docKey: true, version: true, status: true, retiredAt: true, retiredById: true },
    orderBy: [{ docKey: "asc" }, { version: "asc" }],
  });
  const events = await client.auditEvent.findMany({
    where: { action: "document.retired", subjectId: { in: keys } },
    select: { actorType: true, actorId: true, subjectId: true, inputs: true },
    orderBy: { version: "asc" },
  });
  return { versions, events };
}

describe("the retire-superseded job", { timeout: 120_000 }, () => {
  it("is scheduled every minute with the routine jobs' options", async () => {
    const db = testDb();
    const worker = await startWorker({ client: db.client, pglite: db.pglite, url: db.url, schedule: true, log: () => {} });
    try {
      const rows = await db.client.$queryRawUnsafe<{ cron: string; options: { retryLimit?: number } }[]>(
        `SELECT cron, options FROM ${QUEUE_SCHEMA}.schedule WHERE name = $1`,
        QUEUES.retireSuperseded,
      );
      expect(rows).toEqual([{ cron: "* * * * *", options: expect.objectContaining({ retryLimit: 2, expireInSeconds: 900 }) }]);
    } finally {
      await worker.stop(5_000);
    }
  });

  it("retires what a version whose time has come supersedes, as the system, not what one still to come does; once", async () => {
    const db = testDb();
    const due = await scheduledSecondVersion("retire-job-due");
    await scheduledSecondVersion("retire-job-later");
    // The due version's time comes (moved by hand: publishing refuses a time in the past).
    const tookEffect = new Date(Date.now() - 60_000);
    await db.client.$executeRaw`UPDATE "PolicyDocument" SET "effectiveAt" = ${tookEffect} WHERE "id" = ${due}::uuid`;

    await db.client.$transaction((tx) => enqueue(tx, RETIRE_SUPERSEDED_JOB, {}));
    await drainQueue(db);

    const after = await snapshot(["retire-job-due", "retire-job-later"]);
    expect(after.versions).toEqual([
      { docKey: "retire-job-due", version: 1, status: "retired", retiredAt: tookEffect, retiredById: otherLead.id },
      { docKey: "retire-job-due", version: 2, status: "published", retiredAt: null, retiredById: null },
      { docKey: "retire-job-later", version: 1, status: "published", retiredAt: null, retiredById: null },
      { docKey: "retire-job-later", version: 2, status: "published", retiredAt: null, retiredById: null },
    ]);
    expect(after.events).toEqual([
      {
        actorType: "system",
        actorId: "document-scheduler",
        subjectId: "retire-job-due",
        inputs: { docKey: "retire-job-due", versions: [1], why: "superseded" },
      },
    ]);

    await db.client.$transaction((tx) => enqueue(tx, RETIRE_SUPERSEDED_JOB, {}));
    await drainQueue(db);
    expect(await snapshot(["retire-job-due", "retire-job-later"])).toEqual(after);
  });
});
