import { execFile } from "node:child_process";
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
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

  it("refuses an --exclude that names no labelled set, or an --out it cannot write, before training (exit 2)", async () => {
    const run = promisify(execFile);
    const script = path.join(ROOT, "scripts/train-insights.ts");
    const env = { ...process.env, BASE_URL: "", CONTENT_DIR: PROJECT_CONTENT };
    for (const [args, said] of [
      [["--exclude", "trian-1.txt"], '--exclude: not a labelled set of test/fixtures/insights-eval, got "trian-1.txt"'],
      [["--out", "no-such-folder/model.json"], '--out: no such folder, got "no-such-folder/model.json"'],
      [["--out", "test"], '--out: a folder, not a file, got "test"'],
    ] as const) {
      const failed = await run(process.execPath, [script, ...args], { cwd: ROOT, env, timeout: 30_000 }).catch(
        (e) => e,
      );
      expect(failed.code).toBe(2);
      expect(failed.stderr).toContain(`train:insights: ${said}`);
      expect(failed.stderr).toContain("usage: npm run train:insights");
      expect(failed.stderr).not.toMatch(/\n\s+at /);
    }
  }, 120_000);

  // Root may write anywhere: only another user meets a folder it cannot write.
  it.runIf(process.getuid?.() !== 0)(
    "refuses an --out in a folder this user cannot write, before training",
    async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), "pr-train-out-"));
      try {
        await chmod(dir, 0o500);
        const out = path.join(dir, "model.json");
        const failed = await promisify(execFile)(
          process.execPath,
          [path.join(ROOT, "scripts/train-insights.ts"), "--out", out],
          { cwd: ROOT, env: { ...process.env, BASE_URL: "", CONTENT_DIR: PROJECT_CONTENT }, timeout: 30_000 },
        ).catch((e) => e);
        expect(failed.code).toBe(2);
        expect(failed.stderr).toContain(`train:insights: --out: this user cannot write it, got ${JSON.stringify(out)}`);
      } finally {
        await chmod(dir, 0o700);
        await rm(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );

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
