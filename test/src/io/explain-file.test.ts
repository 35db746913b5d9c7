import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { explainContentFile } from "../../../src/io/explain-file.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/insights-content");
const NOW = new Date("2025-12-01T12:00:00Z");

const temp: string[] = [];
afterAll(() => Promise.all(temp.map((d) => rm(d, { recursive: true, force: true }))));

describe("--explain of a file that has no reading", () => {
  it("says a withdrawn review is withdrawn, not that it is no review file", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "pr-explain-"));
    temp.push(dir);
    await cp(FIXTURE, dir, { recursive: true });
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
