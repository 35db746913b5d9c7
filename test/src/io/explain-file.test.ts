import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { explainContentFile } from "../../../src/io/explain-file.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/insights-content");
const NOW = new Date("2025-12-01T12:00:00Z");

const temp = tempFolders();

describe("--explain of a file that has no reading", () => {
  it("says a withdrawn review is withdrawn, not that it is no review file", async () => {
    const dir = await temp.copy(FIXTURE, "pr-explain-");
    const file = path.join(dir, "reviews/2025/2025-03-15-waiting-room.yaml");
    await writeFile(file, `${await readFile(file, "utf8")}withdrawn: {reason: author-request, date: 2025-11-30}\n`);
    expect(await explainContentFile(dir, file, NOW)).toEqual({
      problems: [
        expect.stringContaining(
          `${file}: (file): is withdrawn (its withdrawn: lines), so it is not published and has no reading; removing those lines would publish it again, with a restored entry in the public review log, got`,
        ),
      ],
    });
  });
});
