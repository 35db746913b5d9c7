import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { PROJECT_CONTENT } from "../helpers/project-content.ts";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const SCRIPT = path.join(ROOT, "scripts/eval-insights.ts");
const env = { ...process.env, BASE_URL: "", CONTENT_DIR: PROJECT_CONTENT };

describe("npm run eval:insights", () => {
  it("reads the held-out set first and compares the rules, the learned models and both on it", async () => {
    const { stdout } = await run(process.execPath, [SCRIPT, "--worst", "0"], { cwd: ROOT, env });
    const first = stdout.split("\n").slice(0, 4);
    expect(first[0]).toBe("test/fixtures/insights-eval/heldout-4.txt (held out: never trained or tuned on)");
    for (const [k, reading] of ["rules", "model", "both"].entries()) {
      expect(first[k + 1]).toMatch(new RegExp(`^  ${reading} +polarity accuracy 0\\.\\d{3} +aspect recall 0\\.\\d{3}`));
    }
    // Both targets of issue 22 on the held-out set, as docs/insights.md reports them.
    const both = /both +polarity accuracy (0\.\d+) +aspect recall (0\.\d+)/.exec(first[3] ?? "");
    expect(Number(both?.[1])).toBeGreaterThanOrEqual(0.9);
    expect(Number(both?.[2])).toBeGreaterThanOrEqual(0.9);
    expect(stdout).not.toContain("train-1.txt");
    expect(stdout).toMatch(/editor labels \(aspects: in \d+ review files\)/);
  }, 120_000);

  it("names a bad option and its value", async () => {
    const failed = await run(process.execPath, [SCRIPT, "--reading", "vibes"], { cwd: ROOT, env }).catch((e) => e);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('--reading: expected one of rules, model, both, got "vibes"');
  });
});
