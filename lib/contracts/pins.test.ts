// Every pinned identity has one source, contracts/agent_manifest.json. Code that names its own
// identity must name the pinned one, and no other code may write a pinned version out: bump the
// manifest alone and this test says where the code disagrees.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentManifest, PINNED_IDENTITIES } from "./manifest";
import { BUILTIN_BUNDLE_VERSION } from "../intake/builtin-bundle";
import { EVIDENCE_SERVICE_VERSION } from "../evidence/retrieve-passages";
import { GRADER_VERSION } from "../eval/grade-episodes";
import { datasetFromText } from "../eval/load-dataset";
import { parseQuestionSet } from "../eval/grade-retrieval";

/** Where a pinned version may be written out: the code constant that names its own identity. */
const DEFINED_IN: Record<(typeof PINNED_IDENTITIES)[number], string | null> = {
  agentVersion: null,
  intakeBundle: null,
  evidenceServiceVersion: "lib/evidence/retrieve-passages.ts",
  evalDatasetVersion: null,
  evalDatasetHash: null,
  evalQuestionsHash: null,
  graderVersion: "lib/eval/grade-episodes.ts",
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("pinned identities", () => {
  const manifest = agentManifest();

  it("are the manifest's wherever code names its own", () => {
    expect({
      intakeBundle: BUILTIN_BUNDLE_VERSION,
      evidenceServiceVersion: EVIDENCE_SERVICE_VERSION,
      graderVersion: GRADER_VERSION,
      ...(({ version, hash, episodes }) => ({ evalDatasetVersion: version, evalDatasetHash: hash, evalDatasetEpisodes: episodes.length }))(datasetFromText(readFileSync("eval/episodes.jsonl", "utf8"))),
      ...(({ hash, questions }) => ({ evalQuestionsHash: hash, evalQuestionsCount: questions.length }))(parseQuestionSet(readFileSync("eval/questions.jsonl", "utf8"))),
    }).toEqual({
      intakeBundle: manifest.intakeBundle,
      evidenceServiceVersion: manifest.evidenceServiceVersion,
      graderVersion: manifest.graderVersion,
      evalDatasetVersion: manifest.evalDatasetVersion,
      evalDatasetHash: manifest.evalDatasetHash,
      evalDatasetEpisodes: manifest.evalDatasetEpisodes,
      evalQuestionsHash: manifest.evalQuestionsHash,
      evalQuestionsCount: manifest.evalQuestionsCount,
    });
  });

  it("are written out nowhere else in the app's code", () => {
    const written: string[] = [];
    for (const file of ["lib", "app", "components", "scripts", "prisma/seed"].flatMap(sources)) {
      const text = readFileSync(file, "utf8");
      for (const key of PINNED_IDENTITIES) {
        if (file !== DEFINED_IN[key] && (text.includes(`"${manifest[key]}"`) || text.includes(`'${manifest[key]}'`))) written.push(`${file}: ${key}`);
      }
    }
    expect(written).toEqual([]);
  });
});
