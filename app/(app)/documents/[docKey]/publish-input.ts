// What the publish form sends: the version, and when it takes effect – empty for now, or a date and
// a time typed in UTC (the app shows every time in UTC), refused rather than moved when it does not
// exist (JavaScript reads 30 February as 2 March).
import { z } from "zod";

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/** "" is now (null); "2026-12-01T09:30" is that minute in UTC. */
export const ZEffectiveAt = z
  .string()
  .refine((value) => value === "" || DATE_TIME.test(value), "Give a date and a time, or leave it empty to publish now.")
  .transform((value, ctx) => {
    if (value === "") return null;
    const date = new Date(`${value}:00.000Z`);
    if (Number.isNaN(date.getTime()) || !date.toISOString().startsWith(value)) {
      ctx.addIssue({ code: "custom", message: `There is no ${value.replace("T", " ")} (UTC).` });
      return z.NEVER;
    }
    return date;
  });

export const ZPublishInput = z.object({
  documentId: z.uuid(),
  effectiveAt: ZEffectiveAt.optional(),
  /** Set by a field an evaluation adds to the form when it asks the publisher to acknowledge its regressions. */
  acknowledgeRegressions: z.literal("yes").optional(),
});
