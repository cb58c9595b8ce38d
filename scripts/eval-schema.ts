// npm run eval:schema: writes eval/episode.schema.json from the zod schema the grader validates with.
import { writeFileSync } from "node:fs";
import { z } from "zod";
import { ZEpisode } from "../lib/eval/episode";

const schema = {
  $id: "https://countersign.invalid/eval/episode.schema.json",
  title: "Countersign evaluation episode",
  ...z.toJSONSchema(ZEpisode, { io: "input" }),
};
writeFileSync("eval/episode.schema.json", JSON.stringify(schema, null, 2) + "\n");
console.log("Wrote eval/episode.schema.json");
