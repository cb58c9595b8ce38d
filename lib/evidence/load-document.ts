import type { Db } from "../db";
import { db as defaultDb } from "../db";

/** One version of a policy document with its passages, for the page a citation opens. */
export async function loadPolicyDocument(input: { docKey: string; version: number; client?: Db }) {
  const client = input.client ?? defaultDb();
  const doc = await client.policyDocument.findUnique({
    where: { docKey_version: { docKey: input.docKey, version: input.version } },
    include: { chunks: { orderBy: { ordinal: "asc" }, select: { id: true, ordinal: true, heading: true, text: true } } },
  });
  if (!doc) return null;
  const versions = await client.policyDocument.findMany({
    where: { docKey: input.docKey },
    orderBy: { version: "desc" },
    select: { version: true, status: true },
  });
  return { doc, versions };
}
