import { readdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../scripts/review-new.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");

const temp = tempFolders();

describe("npm run review:new with an option given twice", () => {
  it.each([
    [
      ["--author", "Maria G.", "--author", "Bob T."],
      '--author: given twice ("Maria G." and "Bob T."); give it once, with the value you mean',
    ],
    [["--author", "Maria G.", "--rating", "5", "--rating=1"], '--rating: given twice ("5" and "1")'],
    [["--author", "Maria G.", "--verified-by", "invoice", "--verified-by", "email"], "--verified-by: given twice"],
  ])("refuses %j, since one value would be dropped without a word, and writes nothing", async (argv, message) => {
    const dir = await temp.copy(FIXTURE, "pr-review-new-");
    const err: string[] = [];
    const code = await main(argv, {
      contentDir: dir,
      // No review log anywhere: port 9 is discard.
      env: { BASE_URL: "http://127.0.0.1:9", DATA_DIR: path.join(dir, ".data"), LOG_DIR: path.join(dir, ".log") },
      now: new Date("2025-03-11T09:00:00Z"),
      out: () => {},
      err: (l) => err.push(l),
    });
    expect(code).toBe(2);
    expect(err.join("\n")).toContain(`review:new: ${message}`);
    expect(await readdir(path.join(dir, "reviews"))).toEqual(["2024", "2025"]);
    expect(await readdir(path.join(dir, "reviews/2025"))).toHaveLength(4);
  });
});
