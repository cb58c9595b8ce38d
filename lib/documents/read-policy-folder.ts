// The Markdown files under a folder, as an import takes them: every `.md` file at any depth, named by
// its path inside the folder (with "/"), in that order – so the same folder imports the same way on
// every machine. A README.md describes the folder, it is not a policy, and is left out. Synchronous:
// the command line and the demo seed read a folder of small files once, before anything else.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { TImportFile } from "./import-documents";

export function readPolicyFolder(folder: string): TImportFile[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.md$/i.test(e.name) && e.name.toLowerCase() !== "readme.md")
    .map((e) => join(e.parentPath, e.name))
    .map((path) => ({ path, name: relative(folder, path).split(sep).join("/") }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(({ path, name }) => ({ name, text: readFileSync(path, "utf8") }));
}
