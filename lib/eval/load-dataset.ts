import { readFile } from "node:fs/promises";
import { sha256Hex } from "../contracts/canonical";
import { parseDataset, type TDataset } from "./episode";

/** Reads a dataset file; its content hash is over the exact bytes, so any edit changes it. */
export async function loadDataset(path: string): Promise<TDataset> {
  const text = await readFile(path, "utf8");
  return parseDataset(text, `sha256:${sha256Hex(text)}`);
}
