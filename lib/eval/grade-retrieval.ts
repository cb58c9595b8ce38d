// Retrieval graded on a labelled set of customer questions (eval/questions.jsonl): each is asked the
// way the rule planner asks it – the question evidenceQuestion builds from the ticket, in the ticket's
// language (ticketLanguage) – of the evidence service, on a fresh database with the demo's policy
// documents. An answerable question is recalled when the passage it needs is in the context pack
// (at most three passages: recall@3); an unanswerable one must get no citation at all, and one in a
// language no policy is written in must be abstained on as `unsupported_language`. Every figure is
// given per locale (the language a question is written in) as well as over the whole set. The set is
// pinned by hash in the manifest like the episodes.
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { CITATION_ID } from "../contracts/citations";
import { evidenceQuestion } from "../agent/rule-planner";
import { answerPolicyQuestion } from "../evidence/answer-policy-question";
import { ticketLanguage } from "../evidence/language";
import { datasetHash } from "./load-dataset";
import { parseJsonLines } from "./episode";
import type { DbHandle } from "../db";
import { openGradingDatabase, type TGradingWorld } from "./episode-images";

const LANGUAGE = z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/);

const ZQuestion = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
    subject: z.string().min(1),
    body: z.string().min(1),
    answerable: z.boolean(),
    /** The citation that answers it (answerable questions only). */
    cites: z.string().regex(CITATION_ID).optional(),
    /** The language it is written in: what its figures are reported under. */
    locale: LANGUAGE.default("en"),
    /** Set when it is written in a language no policy is: it must be abstained on as unsupported_language. */
    language: LANGUAGE.optional(),
  })
  .refine((q) => q.answerable === (q.cites !== undefined), {
    message: "an answerable question names the citation that answers it (cites); an unanswerable one names none",
  });
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
  /** The language the question is written in (its `locale`; for one no policy covers, its `language`). */
  locale: string;
  answerable: boolean;
  expected: string | null;
  /** The context pack's citations, best passage first. */
  cited: string[];
  abstainReason: string | null;
  /** Answerable: the expected citation is in the pack. Unanswerable: no citation (and the right abstain reason for another language). */
  passed: boolean;
}

export interface TRetrievalFigures {
  questions: number;
  answerable: number;
  /** Answerable questions whose best passage is the expected citation's. */
  recalledAt1: number;
  recallAt1: number;
  /** Answerable questions with the expected citation among the pack's first three passages. */
  recalled: number;
  recallAt3: number;
  abstained: number;
  abstainedCorrectly: number;
  /** Of the questions the service abstained on, the share that were unanswerable (1 when it never abstained). */
  abstentionPrecision: number;
  /**
   * Answerable questions answered from the wrong document: the pack cites at least one passage and
   * none of them is the expected citation – what a customer would be told instead of the answer. A
   * pack that holds the expected citation beside others is not counted (recall@1 measures the order),
   * nor is an abstention (it lowers recall and abstention precision instead).
   */
  wrongCited: number;
  /** wrongCited / answerable (0 when there are none). */
  wrongCitationRate: number;
  /** Unanswerable questions that got a citation anyway: must be 0. */
  unanswerableCited: number;
}

export interface TRetrievalScore extends TRetrievalFigures {
  rows: TRetrievalRow[];
  /** The same figures for each locale's questions, locales in alphabetical order. */
  byLocale: Record<string, TRetrievalFigures>;
}

export function figuresOf(rows: readonly TRetrievalRow[]): TRetrievalFigures {
  const answerable = rows.filter((r) => r.answerable);
  const recalled = answerable.filter((r) => r.cited.slice(0, 3).includes(r.expected!)).length;
  const recalledAt1 = answerable.filter((r) => r.cited[0] === r.expected).length;
  const wrongCited = answerable.filter((r) => r.cited.length > 0 && !r.cited.includes(r.expected!)).length;
  const abstained = rows.filter((r) => r.abstainReason);
  const abstainedCorrectly = abstained.filter((r) => !r.answerable).length;
  const share = (n: number, of: number, none: number) => (of ? n / of : none);
  return {
    questions: rows.length,
    answerable: answerable.length,
    recalledAt1,
    recallAt1: share(recalledAt1, answerable.length, 1),
    recalled,
    recallAt3: share(recalled, answerable.length, 1),
    abstained: abstained.length,
    abstainedCorrectly,
    abstentionPrecision: share(abstainedCorrectly, abstained.length, 1),
    wrongCited,
    wrongCitationRate: share(wrongCited, answerable.length, 0),
    unanswerableCited: rows.filter((r) => !r.answerable && r.cited.length > 0).length,
  };
}

async function gradeQuestion(db: DbHandle, q: TQuestion): Promise<TRetrievalRow> {
  const answer = await answerPolicyQuestion(db.client, { question: evidenceQuestion(q), locale: ticketLanguage(q) });
  const cited = [...new Set(answer.passages.map((p) => p.citation))];
  const abstainReason = answer.status === "abstain" ? answer.reason : null;
  const passed = q.answerable ? cited.includes(q.cites!) : cited.length === 0 && (!q.language || abstainReason === "unsupported_language");
  return { id: q.id, locale: q.language ?? q.locale, answerable: q.answerable, expected: q.cites ?? null, cited, abstainReason, passed };
}

export async function gradeRetrieval(
  set: TQuestionSet,
  options: { world: TGradingWorld; /** The world's database, when the caller has it open (openGradingDatabase); it is only read. */ database?: DbHandle },
): Promise<TRetrievalScore> {
  const db = options.database ?? (await openGradingDatabase(options.world));
  try {
    const rows: TRetrievalRow[] = [];
    for (const q of set.questions) rows.push(await gradeQuestion(db, q));
    const locales = [...new Set(rows.map((r) => r.locale))].sort();
    const byLocale = Object.fromEntries(locales.map((l) => [l, figuresOf(rows.filter((r) => r.locale === l))]));
    return { rows, ...figuresOf(rows), byLocale };
  } finally {
    if (db !== options.database) await db.close();
  }
}

function describeFigures(label: string, f: TRetrievalFigures): string {
  const pct = (x: number) => x.toFixed(2);
  return (
    `${label.padEnd(6)} ${String(f.questions).padStart(4)} ${String(f.answerable).padStart(5)}   ` +
    `${pct(f.recallAt1)} (${f.recalledAt1}/${f.answerable})`.padEnd(16) +
    `${pct(f.recallAt3)} (${f.recalled}/${f.answerable})`.padEnd(16) +
    `${pct(f.abstentionPrecision)} (${f.abstainedCorrectly}/${f.abstained})`.padEnd(16) +
    `${pct(f.wrongCitationRate)} (${f.wrongCited})`.padEnd(13) +
    `${f.unanswerableCited}`
  );
}

/** The lines `npm run eval` prints. */
export function describeRetrieval(score: TRetrievalScore): string[] {
  return [
    `Retrieval: recall@3 ${score.recalled}/${score.answerable} = ${score.recallAt3.toFixed(2)} on answerable questions; abstention precision ${score.abstainedCorrectly}/${score.abstained} = ${score.abstentionPrecision.toFixed(2)}; unanswerable questions with a citation: ${score.unanswerableCited}.`,
    `locale  qs  answ   recall@1        recall@3        abst. precision wrong-cited  unanswerable cited`,
    ...Object.entries(score.byLocale).map(([locale, f]) => describeFigures(locale, f)),
    describeFigures("all", score),
    ...score.rows
      .filter((r) => !r.passed)
      .map((r) => `  ✗ ${r.id} (${r.locale}): expected ${r.expected ?? "no citation"}, got ${r.cited.join(", ") || `none (${r.abstainReason})`}`),
  ];
}
