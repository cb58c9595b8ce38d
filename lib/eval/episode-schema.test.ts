import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ZEpisode } from "./episode";

describe("eval/episode.schema.json", () => {
  it("is the JSON Schema of the zod schema the grader uses (run npm run eval:schema after changing it)", () => {
    const published = JSON.parse(readFileSync("eval/episode.schema.json", "utf8"));
    const { $id: _id, title: _title, ...rest } = published;
    expect(rest).toEqual(JSON.parse(JSON.stringify(z.toJSONSchema(ZEpisode, { io: "input" }))));
  });
});
