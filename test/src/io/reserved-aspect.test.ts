import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkContentDir } from "../../../src/io/content-check.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/insights-content");
const NOW = new Date("2025-12-01T12:00:00Z");

const temp: string[] = [];
afterAll(() => Promise.all(temp.map((d) => rm(d, { recursive: true, force: true }))));

describe("an aspect renamed to an id the evidence pages reserve", () => {
  it("is named even while sentiment.yaml still names the old id", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "pr-reserved-"));
    temp.push(dir);
    await cp(FIXTURE, dir, { recursive: true });
    const aspects = path.join(dir, "insights/aspects.yaml");
    const lexicon = path.join(dir, "insights/sentiment.yaml");
    await writeFile(aspects, (await readFile(aspects, "utf8")).replace("  - id: scheduling", "  - id: topics"));
    const report = await checkContentDir(dir, { now: NOW });
    const problems = report.ok ? [] : report.problems;
    expect(problems).toContain(
      `${aspects}: line 15: aspects[3].id: is the address of other evidence pages (/insights/topics/), so no aspect may take it (reserved: practitioners, services, service-areas, topics, ratings, page); choose another id, got "topics"`,
    );
    // The rename's other problem is listed beside it, not instead of it.
    expect(problems.some((p) => p.startsWith(`${lexicon}: line 81:`))).toBe(true);
  });
});
