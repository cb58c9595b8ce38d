// A person by email, for the command line's `--as`: the CLI names who it acts for, and its work is
// recorded under that person, with their role re-checked by every function it calls.
import type { Role } from "../../generated/prisma/enums";
import { db as defaultDb, type Db } from "../db";

export async function findPerson(input: {
  email: string;
  client?: Db;
}): Promise<{ id: string; name: string; role: Role; active: boolean } | null> {
  return (input.client ?? defaultDb()).user.findFirst({
    where: { email: { equals: input.email.trim(), mode: "insensitive" } },
    select: { id: true, name: true, role: true, active: true },
  });
}
