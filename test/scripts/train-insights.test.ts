import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  EDITOR_WEIGHT,
  HELD_OUT,
  trainedModelText,
  trainingFiles,
  VALIDATION_ONLY,
} from "../../scripts/train-insights.ts";
import { PROJECT_CONTENT } from "../helpers/project-content.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("npm run train:insights", () => {
  it("never reads the held-out sets, nor the validation sets that only measure", async () => {
    const files = await trainingFiles([], ROOT);
    expect(files.length).toBeGreaterThan(30);
    for (const h of [...HELD_OUT, ...VALIDATION_ONLY]) expect(files.map((f) => path.basename(f))).not.toContain(h);
  });

  it("learns from the editors' aspects: labels in the content, weighted and listed apart", async () => {
    const model = JSON.parse(await readFile(path.join(ROOT, "content/insights/model.json"), "utf8"));
    expect(model.trained_on).toContain(`editor labels in 3 reviews (weight ${EDITOR_WEIGHT})`);
    expect(model.trained_on).toContain("train-reviews-1.txt");
  });

  it("writes exactly the committed content/insights/model.json from the committed sets (deterministic, reproducible)", async () => {
    const committed = await readFile(path.join(PROJECT_CONTENT, "insights/model.json"), "utf8");
    const fresh = await trainedModelText(PROJECT_CONTENT, [], ROOT);
    expect(fresh === committed, "run npm run train:insights and commit content/insights/model.json").toBe(true);
  }, 720_000);
});
