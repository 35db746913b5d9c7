import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The report's mechanics, on a set written here and on a validation set: never a figure of a
 * held-out set (those are read by people, once; docs/insights.md).
 */
const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const SCRIPT = path.join(ROOT, "scripts/eval-insights.ts");
const env = { ...process.env, BASE_URL: "", CONTENT_DIR: path.join(ROOT, "test/fixtures/insights-content") };
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pr-eval-"));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const figure = /[01]\.\d{3} \([01]\.\d\d–[01]\.\d\d, n = \d+\)/.source;

describe("npm run eval:insights", () => {
  it("de-duplicates a set training never read against the training sets, and says by how much", async () => {
    // Three lines copied from a training set, and two written for this test.
    const copied = (await readFile(path.join(ROOT, "test/fixtures/insights-eval/train-1.txt"), "utf8"))
      .split("\n")
      .filter((l) => l.trim() !== "" && !l.startsWith("#"))
      .slice(0, 3);
    const file = path.join(dir, "new-set.txt");
    await writeFile(
      file,
      [
        "# Written for this test.",
        ...copied,
        "2 | billing:- | Grandpa's accordion lesson fund evaporated into their mysterious laminated invoice.",
        "4 | facility:+ | Zebra-striped hammocks, aquarium gurgles, lavender humidifiers: whimsical yet soothing décor.",
      ].join("\n"),
    );
    const { stdout } = await run(process.execPath, [SCRIPT, "--file", file, "--worst", "0"], { cwd: ROOT, env });
    const lines = stdout.split("\n");
    expect(lines[0]).toBe(`${file} (not a set the models were trained on)`);
    expect(lines[1]).toMatch(
      /^ {2}de-duplicated: 5 items, 3 dropped \(word-Jaccard >= 0\.5 with one of the \d+ texts training reads\), 2 kept$/,
    );
    expect(lines[2]).toMatch(
      new RegExp(`^ {2}both before de-duplication: polarity accuracy ${figure} +aspect recall ${figure}`),
    );
    expect(lines[3]).toMatch(/: 2 items, \d gold aspects found$/);
    expect(lines[3]?.startsWith(`${file}: `)).toBe(true);
    expect(lines[4]).toMatch(new RegExp(`strict accuracy ${figure}`));
  }, 120_000);

  it("reads a set training reads as it is, with an interval for every figure", async () => {
    const set = path.join("test/fixtures/insights-eval", "dev-2.txt");
    const { stdout } = await run(process.execPath, [SCRIPT, "--file", set, "--worst", "1"], { cwd: ROOT, env });
    const lines = stdout.split("\n");
    expect(lines[0]).toBe(`${set} (trained on)`);
    expect(stdout).not.toContain("de-duplicated");
    expect(lines[2]).toMatch(new RegExp(`strict accuracy ${figure}$`));
    expect(lines[3]).toMatch(new RegExp(`every label right ${figure}$`));
    // The sentences the site may quote for these items that the gold does not support: a count, then
    // the first N (here 1), each with its sentence on the next line.
    const quotes = lines.findIndex((l) =>
      /^ {2}quotes the gold does not support \(\d+ of \d+ the site may quote\)$/.test(l),
    );
    expect(quotes).toBeGreaterThan(3);
    const wrong = Number(lines[quotes]?.match(/\((\d+) of/)?.[1]);
    const listed = lines.slice(quotes + 1).filter((l) => /^ {2}line \d+: quoted as [a-z-]+:(pos|neg); gold /.test(l));
    expect(listed).toHaveLength(Math.min(wrong, 1));
    expect(stdout).toMatch(/editor labels \(aspects: in \d+ review files\)/);
  }, 120_000);

  it("takes what a model read from its trained_on: a set it was not trained on is de-duplicated against the rest", async () => {
    const content = path.join(dir, "content");
    await cp(env.CONTENT_DIR, content, { recursive: true });
    const model = {
      version: 2,
      trained_on: ["train-1.txt", "train-2.txt"],
      polarity: { features: [], bias: [0, 0, 0], weights: [] },
      aspects: { features: [], models: [] },
    };
    await writeFile(path.join(content, "insights/model.json"), JSON.stringify(model));
    // A set training reads by default, which this model did not.
    const set = path.join("test/fixtures/insights-eval", "train-3.txt");
    const args = [SCRIPT, "--file", set, "--worst", "0"];
    const { stdout } = await run(process.execPath, args, { cwd: ROOT, env: { ...env, CONTENT_DIR: content } });
    const lines = stdout.split("\n");
    expect(lines[0]).toBe(`${set} (not a set the models were trained on)`);
    // Against the two sets the model read (and the content's labelled reviews), not every training set.
    const texts = Number(lines[1]?.match(/one of the (\d+) texts/)?.[1]);
    expect(texts).toBeGreaterThan(0);
    expect(texts).toBeLessThan(1000);
    // With a model, each reading's row ends with the share of the quotes the gold supports; the rules
    // alone quote, the models alone never do (their readings are inferred).
    expect(lines[2]).toMatch(new RegExp(`^ {2}rules .* spurious polar \\d+ {3}quotes right ${figure}$`));
    expect(lines[3]).toMatch(/^ {2}model .* spurious polar \d+ {3}no quotes$/);
  }, 120_000);

  it("measures a set's second reading against its gold, and the build against the second reading", async () => {
    const sets = path.join(dir, "two-readers");
    await mkdir(path.join(sets, "second-reading"), { recursive: true });
    const texts = [
      "2 | billing:- | Grandpa's accordion lesson fund evaporated into their mysterious laminated invoice.",
      "4 | facility:+ | Zebra-striped hammocks, aquarium gurgles, lavender humidifiers: whimsical yet soothing décor.",
      "1 | staff:- scheduling:- | The kazoo-playing receptionist rebooked my slot onto a Tuesday that does not exist.",
    ];
    const file = path.join(sets, "readers.txt");
    await writeFile(file, `# Written for this test.\n${texts.join("\n")}\n`);
    // The second reader agrees on the first item, reads the second's side otherwise, and adds an
    // aspect to the third: one item of three with every label right, 3 of 4 aspects found.
    const second = [
      texts[0],
      (texts[1] as string).replace("facility:+", "facility:0"),
      (texts[2] as string).replace("staff:- scheduling:-", "staff:- billing:- facility:-"),
    ];
    await writeFile(path.join(sets, "second-reading", "readers.txt"), `# Second reading.\n${second.join("\n")}\n`);
    const { stdout } = await run(process.execPath, [SCRIPT, "--file", file, "--worst", "0"], { cwd: ROOT, env });
    const reader = stdout.split("\n").find((l) => l.startsWith("  second reader: "));
    expect(reader).toMatch(/polarity accuracy 0\.667 \(0\.\d\d–0\.\d\d, n = 3\) +aspect recall 0\.750 /);
    expect(reader).toMatch(/every label right 0\.333 \(0\.\d\d–0\.\d\d, n = 3\) +spurious polar 2 +no quotes$/);
    // The build against the second reader reads as the build against a set whose gold is the second
    // reader's labels (nothing is de-duplicated here, so "before de-duplication" is the same items).
    const against = stdout.split("\n").find((l) => l.startsWith("  both against the second reader: "));
    const asGold = path.join(dir, "readers-as-gold.txt");
    await writeFile(asGold, `${second.join("\n")}\n`);
    const gold = await run(process.execPath, [SCRIPT, "--file", asGold, "--worst", "0"], { cwd: ROOT, env });
    const build = gold.stdout.split("\n").find((l) => l.startsWith("  both before de-duplication: "));
    expect(against?.replace(" against the second reader:", "")).toBe(build?.replace(" before de-duplication:", ""));

    // A second reading whose items are not the set's is refused, naming its line.
    await writeFile(path.join(sets, "second-reading", "readers.txt"), `${texts[0]}\n${texts[2]}\n${texts[1]}\n`);
    const failed = await run(process.execPath, [SCRIPT, "--file", file], { cwd: ROOT, env }).catch((e) => e);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(
      `${path.join(sets, "second-reading", "readers.txt")}:2: expected the set's item 2 (line 3) with its rating and text, got a different one`,
    );
    expect(failed.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);

  it("names a bad option and its value, with the usage and no stack trace (exit 2)", async () => {
    for (const [args, said] of [
      [["--reading", "vibes"], '--reading: expected one of rules, model, both, got "vibes"'],
      [["--bogus"], "Unknown option '--bogus'"],
    ] as const) {
      const failed = await run(process.execPath, [SCRIPT, ...args], { cwd: ROOT, env }).catch((e) => e);
      expect(failed.code).toBe(2);
      expect(failed.stderr).toContain(said);
      expect(failed.stderr).toContain("usage: npm run eval:insights");
      expect(failed.stderr).not.toMatch(/\n\s+at /);
    }
    const { stdout } = await run(process.execPath, [SCRIPT, "--help"], { cwd: ROOT, env });
    expect(stdout).toMatch(/^usage: npm run eval:insights/);
  });

  it("names a malformed labelled line, or a --file that is no file, without a stack trace", async () => {
    const bad = path.join(dir, "bad-set.txt");
    await writeFile(bad, "# Written for this test.\n3 | billing:x | The bill was wrong.\n");
    for (const [file, code, said] of [
      [bad, 1, `${bad}:2: expected +, 0 or - after billing:, got "3 | billing:x | The bill was wrong."`],
      [path.join(dir, "no-such-set.txt"), 2, `--file: no such file, got "${path.join(dir, "no-such-set.txt")}"`],
      [dir, 2, `--file: no such file, got "${dir}"`],
    ] as const) {
      const failed = await run(process.execPath, [SCRIPT, "--file", file], { cwd: ROOT, env }).catch((e) => e);
      expect(failed.code).toBe(code);
      expect(failed.stderr).toContain(`eval:insights: `);
      expect(failed.stderr).toContain(said);
      expect(failed.stderr).not.toMatch(/\n\s+at /);
    }
  }, 60_000);
});
