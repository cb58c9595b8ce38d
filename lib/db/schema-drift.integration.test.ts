// schema.prisma and the migrations describe one database: replaying every migration and diffing it
// against the schema finds nothing. A schema edited without its migration (or the reverse) fails
// here, rather than surfacing as unrelated statements in the next `npm run db:migrate:create`.
import { describe, expect, it } from "vitest";
import { schemaDrift } from "./migrate";

describe("schema.prisma and the migrations", () => {
  it("agree", async () => {
    expect(await schemaDrift()).toBeNull();
  }, 120_000);
});
