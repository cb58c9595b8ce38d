"use server";
// The documents list's action: an upload of Markdown files imported as drafts, all or nothing
// (lib/documents/import-documents.ts checks each file and answers each one's outcome).
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authedAction } from "@/lib/auth/authed";
import { plainText } from "@/lib/contracts/text";
import { IMPORT_LIMITS, importDocuments } from "@/lib/documents/import-documents";

const ZImport = z.object({
  files: z
    .array(
      z.object({
        name: plainText(z.string().min(1).max(IMPORT_LIMITS.nameChars), { label: "A file name" }),
        // Control characters in a file are the import's to name, with the file and its line.
        text: z.string().max(IMPORT_LIMITS.fileBytes, `A document may be at most ${IMPORT_LIMITS.fileBytes / 1024} KiB.`),
      }),
    )
    .min(1, "Choose at least one Markdown file.")
    .max(IMPORT_LIMITS.files, `One upload takes at most ${IMPORT_LIMITS.files} files.`),
});

export const importDocumentsAction = authedAction({ area: "writeDocuments", input: ZImport }, async ({ input, user }) => {
  const result = await importDocuments({ files: input.files, actor: user });
  if (result.ok) revalidatePath("/documents", "layout");
  return result;
});
