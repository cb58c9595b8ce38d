// A database behind its checkpoint file is a rollback; a database ahead of it, or missing one
// checkpoint among others the file also holds, is not.
import { describe, expect, it } from "vitest";
import { findRollback, type TCheckpointMark } from "./rollback";

const mark = (position: number, history = "a"): TCheckpointMark => ({
  position,
  hash: `${history}${position}`,
  events: String(position * 10),
  ledgerRows: position,
  signedAt: `2026-11-0${position}T00:00:00.000Z`,
});
const chain = (n: number, history = "a") => Array.from({ length: n }, (_, i) => mark(i + 1, history));

describe("findRollback", () => {
  it("names a database that holds fewer of the file's checkpoints: what is kept and what is lost", () => {
    expect(findRollback(chain(2), chain(5))).toEqual({
      keptUpTo: 2,
      fileUpTo: 5,
      lastSignedAt: "2026-11-05T00:00:00.000Z",
      lostEvents: "30",
      lostLedgerRows: 3,
      signedSince: 0,
    });
    expect(findRollback([], chain(1))).toMatchObject({ keptUpTo: 0, fileUpTo: 1, lostEvents: "10", lostLedgerRows: 1 });
  });

  it("still names it once the rolled-back database has signed checkpoints of its own", () => {
    const resigned = [...chain(2), mark(3, "b"), mark(4, "b")];
    expect(findRollback(resigned, chain(5))).toMatchObject({ keptUpTo: 2, fileUpTo: 5, signedSince: 2 });
  });

  it("is no rollback when the database is ahead of or level with the file", () => {
    expect(findRollback(chain(5), chain(3))).toBeUndefined();
    expect(findRollback(chain(3), chain(3))).toBeUndefined();
    expect(findRollback(chain(3), [])).toBeUndefined();
  });

  it("is no rollback when the database lacks a checkpoint in the middle but holds later ones of the file", () => {
    const withoutThird = chain(5).filter((c) => c.position !== 3);
    expect(findRollback(withoutThird, chain(5))).toBeUndefined();
  });
});
