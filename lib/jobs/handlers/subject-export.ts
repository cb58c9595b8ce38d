import { buildSubjectExport } from "../../privacy/export-subject";
import type { SUBJECT_EXPORT_JOB } from "../definitions/subject-export";
import type { TJobInput } from "./job-input";

/** A requested export → filled with everything held about its customer. */
export async function subjectExportJob({ data, client }: TJobInput<typeof SUBJECT_EXPORT_JOB>): Promise<unknown> {
  return buildSubjectExport({ exportId: data.exportId, client });
}
