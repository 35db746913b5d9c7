import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The insights commands read the content first: a problem there is an editor's, said in their words
 * with exit code 1 (scripts/editor-errors.ts), never as a stack trace.
 */
const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
let content: string;

beforeAll(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "pr-editor-errors-"));
  content = path.join(dir, "content");
  await cp(path.join(ROOT, "test/fixtures/insights-content"), content, { recursive: true });
  // The same opinion word twice in sentiment.yaml's negative words.
  const file = path.join(content, "insights/sentiment.yaml");
  const text = await readFile(file, "utf8");
  const at = text.indexOf("    - rude\n");
  if (at < 0) throw new Error("the fixture's sentiment.yaml has no negative word 'rude'");
  await writeFile(file, `${text.slice(0, at)}    - rude\n${text.slice(at)}`);
});
afterAll(async () => {
  if (content) await rm(path.dirname(content), { recursive: true, force: true });
});

describe("a content problem under the insights commands", () => {
  for (const [command, script] of [
    ["eval:insights", "scripts/eval-insights.ts"],
    ["train:insights", "scripts/train-insights.ts"],
  ] as const) {
    it(`is named by ${command} with the file and the field, exit 1, no stack trace`, async () => {
      const env = { ...process.env, BASE_URL: "", CONTENT_DIR: content };
      const args = [path.join(ROOT, script), "--out", path.join(path.dirname(content), "model.json")];
      const failed = await run(process.execPath, command === "train:insights" ? args : args.slice(0, 1), {
        cwd: ROOT,
        env,
      }).catch((e) => e);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(
        new RegExp(
          `^${command}: Invalid content: .*insights/sentiment\\.yaml: line \\d+: words\\.negative\\[\\d+\\]: duplicate term.*"rude"`,
        ),
      );
      expect(failed.stderr).not.toMatch(/\n\s+at /);
    }, 60_000);
  }
});
