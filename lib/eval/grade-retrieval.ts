// Retrieval graded on a labelled set of customer questions (eval/questions.jsonl): each is asked the
// way the rule planner asks it – a question built from the ticket's intent (evidenceQuestion) – of
// the evidence service, on a fresh database with the demo's policy documents. An answerable question
// is recalled when the passage it needs is in the context pack (at most three passages: recall@3);
// an unanswerable one must get no citation at all, and one in a language no policy is written in
// must be abstained on as `unsupported_language`. The set is pinned by hash in the manifest like the
// episodes.
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { CITATION_ID } from "../contracts/citations";
import { evidenceQuestion } from "../agent/rule-planner";
import { answerPolicyQuestion } from "../evidence/answer-policy-question";
import { datasetHash } from "./load-dataset";
import { parseJsonLines } from "./episode";
import type { DbHandle } from "../db";
import { openGradingDatabase, type TGradingWorld } from "./episode-images";

const ZQuestion = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  subject: z.string().min(1),
  body: z.string().min(1),
  answerable: z.boolean(),
  /** The citation that answers it (answerable questions only). */
  cites: z.string().regex(CITATION_ID).optional(),
  /** Set when it is written in a language no policy is: it must be abstained on as unsupported_language. */
  language: z.string().regex(/^[a-z]{2}$/).optional(),
}).refine((q) => q.answerable === (q.cites !== undefined), { message: "an answerable question names the citation that answers it (cites); an unanswerable one names none" });
export type TQuestion = z.infer<typeof ZQuestion>;

export interface TQuestionSet {
  version: string;
  hash: string;
  questions: TQuestion[];
}

export function parseQuestionSet(text: string): TQuestionSet {
  const { version, items } = parseJsonLines(text, { headerKey: "questionSetVersion", schema: ZQuestion, noun: "question" });
  return { version, hash: datasetHash(text), questions: items };
}

export async function loadQuestionSet(path: string): Promise<TQuestionSet> {
  return parseQuestionSet(await readFile(path, "utf8"));
}

export interface TRetrievalRow {
  id: string;
  answerable: boolean;
  expected: string | null;
  cited: string[];
  abstainReason: string | null;
  /** Answerable: the expected citation is in the pack. Unanswerable: no citation (and the right abstain reason for another language). */
  passed: boolean;
}

export interface TRetrievalScore {
  rows: TRetrievalRow[];
  answerable: number;
  recalled: number;
  /** recalled / answerable. */
  recallAt3: number;
  abstained: number;
  abstainedCorrectly: number;
  /** Of the questions the service abstained on, the share that were unanswerable (1 when it never abstained). */
  abstentionPrecision: number;
  /** Unanswerable questions that got a citation anyway: must be 0. */
  unanswerableCited: number;
}

export async function gradeRetrieval(set: TQuestionSet, options: { world: TGradingWorld; /** The world's database, when the caller has it open (openGradingDatabase); it is only read. */ database?: DbHandle }): Promise<TRetrievalScore> {
  const db = options.database ?? (await openGradingDatabase(options.world));
  try {
    const rows: TRetrievalRow[] = [];
    for (const q of set.questions) {
      const answer = await answerPolicyQuestion(db.client, evidenceQuestion(q));
      const cited = [...answer.citations];
      const abstainReason = answer.status === "abstain" ? answer.reason : null;
      const passed = q.answerable ? cited.includes(q.cites!) : cited.length === 0 && (!q.language || abstainReason === "unsupported_language");
      rows.push({ id: q.id, answerable: q.answerable, expected: q.cites ?? null, cited, abstainReason, passed });
    }
    const answerable = rows.filter((r) => r.answerable);
    const abstained = rows.filter((r) => r.abstainReason);
    const abstainedCorrectly = abstained.filter((r) => !r.answerable).length;
    return {
      rows,
      answerable: answerable.length,
      recalled: answerable.filter((r) => r.passed).length,
      recallAt3: answerable.length ? answerable.filter((r) => r.passed).length / answerable.length : 1,
      abstained: abstained.length,
      abstainedCorrectly,
      abstentionPrecision: abstained.length ? abstainedCorrectly / abstained.length : 1,
      unanswerableCited: rows.filter((r) => !r.answerable && r.cited.length > 0).length,
    };
  } finally {
    if (db !== options.database) await db.close();
  }
}

/** The lines `npm run eval` prints. */
export function describeRetrieval(score: TRetrievalScore): string[] {
  const pct = (x: number) => x.toFixed(2);
  return [
    `Retrieval: recall@3 ${score.recalled}/${score.answerable} = ${pct(score.recallAt3)} on answerable questions; abstention precision ${score.abstainedCorrectly}/${score.abstained} = ${pct(score.abstentionPrecision)}; unanswerable questions with a citation: ${score.unanswerableCited}.`,
    ...score.rows.filter((r) => !r.passed).map((r) => `  ✗ ${r.id}: expected ${r.expected ?? "no citation"}, got ${r.cited.join(", ") || `none (${r.abstainReason})`}`),
  ];
}
