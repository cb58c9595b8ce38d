// The documents list's address: its filters and page, as typed into the URL. A value that does not
// fit is named beside its field and no list is shown, rather than silently dropped.
import { z } from "zod";
import { DocumentStatus } from "@/generated/prisma/enums";
import { plainText } from "@/lib/contracts/text";

export const ZDocumentListQuery = z.object({
  q: plainText(z.string().trim().max(200, "Search for at most 200 characters."), { label: "The search" }).optional(),
  status: z.enum(Object.values(DocumentStatus), { error: "Choose a state from the list." }).optional(),
  locale: z
    .string()
    .trim()
    .regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'A locale is a language code like "en" or "es-MX".')
    .optional(),
  page: z.coerce.number({ error: "The page is a number." }).int().min(1, "Pages start at 1.").max(100_000).optional(),
});

export type TDocumentListQuery = z.infer<typeof ZDocumentListQuery>;

type TSearchParams = Record<string, string | string[] | undefined>;

/** The query's fields as typed (empty ones left out), for the form and for zod. */
export function listQueryValues(params: TSearchParams): Record<"q" | "status" | "locale" | "page", string> {
  const first = (key: string) => {
    const value = params[key];
    return (Array.isArray(value) ? value[0] : value) ?? "";
  };
  return { q: first("q"), status: first("status"), locale: first("locale"), page: first("page") };
}

export function parseListQuery(values: Record<string, string>) {
  const present = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
  return ZDocumentListQuery.safeParse(present);
}
