// The Markdown files under a folder, as an import takes them: every `.md` file at any depth, named by
// its path inside the folder (with "/"), in that order – so the same folder imports the same way on
// every machine. A README.md describes the folder, it is not a policy, and is left out.
import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { TImportFile } from "./import-documents";

export async function readPolicyFolder(folder: string): Promise<TImportFile[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const paths = entries
    .filter((e) => e.isFile() && /\.md$/i.test(e.name) && e.name.toLowerCase() !== "readme.md")
    .map((e) => join(e.parentPath, e.name))
    .map((path) => ({ path, name: relative(folder, path).split(sep).join("/") }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return Promise.all(paths.map(async ({ path, name }) => ({ name, text: await readFile(path, "utf8") })));
}
