// Two versions of one document compared (compare-versions.ts), for the diff page: any two versions
// of a key, in either order.
import { db as defaultDb, type Db } from "../db";
import { compareVersions } from "./compare-versions";

const VERSION = {
  select: {
    id: true,
    version: true,
    status: true,
    title: true,
    locale: true,
    contentHash: true,
    body: true,
    updatedAt: true,
    chunks: { orderBy: { ordinal: "asc" }, select: { heading: true, text: true, audience: true } },
  },
} as const;

export async function diffVersions(input: { docKey: string; from: number; to: number; client?: Db }) {
  const client = input.client ?? defaultDb();
  const load = (version: number) =>
    Number.isSafeInteger(version) && version > 0
      ? client.policyDocument.findUnique({ where: { docKey_version: { docKey: input.docKey, version } }, ...VERSION })
      : Promise.resolve(null);
  const [from, to] = await Promise.all([load(input.from), load(input.to)]);
  if (!from || !to) return null;
  const { chunks: fromPassages, ...fromVersion } = from;
  const { chunks: toPassages, ...toVersion } = to;
  return {
    docKey: input.docKey,
    from: fromVersion,
    to: toVersion,
    ...compareVersions({ body: from.body, passages: fromPassages }, { body: to.body, passages: toPassages }),
  };
}
