// How much one upload on the documents page may carry. The import itself takes more (IMPORT_LIMITS,
// for the command line); an upload is also held to the body a server action accepts, which is set
// for every action in next.config.mjs (serverActions.bodySizeLimit) and kept equal to
// ACTION_BODY_LIMIT_BYTES by import-limits.test.ts. Past it Next refuses the request before the
// action runs, so the form checks first and says what to do.
import { IMPORT_LIMITS } from "@/lib/documents/import-documents";
import type { TImportLimits } from "./import-selection";

/** next.config.mjs: serverActions.bodySizeLimit "4mb". */
export const ACTION_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

/** Room left in the body for what the action's encoding adds around the files. */
const ENVELOPE_BYTES = 64 * 1024;

export const IMPORT_FORM_LIMITS: TImportLimits = {
  maxFiles: IMPORT_LIMITS.files,
  maxFileBytes: IMPORT_LIMITS.fileBytes,
  maxPayloadBytes: Math.min(IMPORT_LIMITS.totalBytes, ACTION_BODY_LIMIT_BYTES - ENVELOPE_BYTES),
};
