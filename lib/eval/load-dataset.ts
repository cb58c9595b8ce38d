import { readFile } from "node:fs/promises";
import { sha256Hex } from "../contracts/canonical";
import { parseDataset, type TDataset } from "./episode";

/** The content hash of a dataset: over its exact bytes, so any edit changes it. */
export function datasetHash(text: string): string {
  return `sha256:${sha256Hex(text)}`;
}

/** Parses a dataset's text and names it by its content hash. */
export function datasetFromText(text: string): TDataset {
  return parseDataset(text, datasetHash(text));
}

/** Reads a dataset file. */
export async function loadDataset(path: string): Promise<TDataset> {
  return datasetFromText(await readFile(path, "utf8"));
}
