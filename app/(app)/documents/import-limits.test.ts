import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { IMPORT_LIMITS } from "@/lib/documents/import-documents";
import { ACTION_BODY_LIMIT_BYTES, IMPORT_FORM_LIMITS } from "./import-limits";

/** serverActions.bodySizeLimit as next.config.mjs writes it, in bytes (Next's "4mb" is 4 × 1024 × 1024). */
function configuredBodyLimit(): number {
  const m = /bodySizeLimit:\s*"(\d+)(kb|mb)"/i.exec(readFileSync("next.config.mjs", "utf8"));
  if (!m) throw new Error("next.config.mjs sets no bodySizeLimit in kb or mb");
  return Number(m[1]) * (m[2]!.toLowerCase() === "mb" ? 1024 * 1024 : 1024);
}

describe("the upload's limits", () => {
  it("are the body next.config.mjs lets a server action take, less room for the encoding", () => {
    const limit = configuredBodyLimit();
    expect(limit).toBe(ACTION_BODY_LIMIT_BYTES);
    expect(IMPORT_FORM_LIMITS.maxPayloadBytes).toBeLessThan(limit);
    expect(IMPORT_FORM_LIMITS.maxPayloadBytes).toBeGreaterThan(limit - 128 * 1024);
  });

  it("never let through what the import itself would refuse", () => {
    expect(IMPORT_FORM_LIMITS.maxFiles).toBeLessThanOrEqual(IMPORT_LIMITS.files);
    expect(IMPORT_FORM_LIMITS.maxFileBytes).toBeLessThanOrEqual(IMPORT_LIMITS.fileBytes);
    expect(IMPORT_FORM_LIMITS.maxPayloadBytes).toBeLessThanOrEqual(IMPORT_LIMITS.totalBytes);
  });
});
