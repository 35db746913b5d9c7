import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HELD_OUT, SETS, trainingFiles, VALIDATION_ONLY } from "../../scripts/train-insights.ts";

/**
 * What the README, the overview, docs/insights.md and the data card say of the labelled data (how
 * many items, how they split between training, held-out and validation, in how many files) is what
 * the files hold. Counts only: no figure of a held-out set is read here.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const n = (x: number) => x.toLocaleString("en-US");
const WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
const items = (text: string) => text.split("\n").filter((l) => l.trim() !== "" && !l.trim().startsWith("#")).length;

async function counts() {
  const names = (await readdir(path.join(ROOT, SETS))).filter((f) => f.endsWith(".txt"));
  let all = 0;
  let heldOut = 0;
  let validation = 0;
  for (const name of names) {
    const k = items(await readFile(path.join(ROOT, SETS, name), "utf8"));
    all += k;
    if (HELD_OUT.includes(name)) heldOut += k;
    if (VALIDATION_ONLY.includes(name)) validation += k;
  }
  return { files: names.length, all, heldOut, validation, training: all - heldOut - validation };
}

const read = (file: string) => readFile(path.join(ROOT, file), "utf8").then((t) => t.replace(/\s+/g, " "));

describe("the labelled data's counts, as the docs tell them", () => {
  it("match the files", async () => {
    const c = await counts();
    const readme = await read("README.md");
    expect(readme).toContain(`All ${n(c.all)} labelled sentences and whole reviews`);
    expect(readme).toContain(
      `${n(c.training)} for training, ${n(c.heldOut)} in ${WORDS[HELD_OUT.length]} held-out sets, ${n(c.validation)} in ${WORDS[VALIDATION_ONLY.length]} validation set${VALIDATION_ONLY.length === 1 ? "" : "s"}; ${c.files} files`,
    );
    expect(await read("docs/overview.md")).toContain(`trained offline on ${n(c.training)} labelled`);
    expect(await read("docs/insights.md")).toContain(`All ${n(c.all)} labelled items`);
    expect(await read("docs/insights.md")).toContain(`(${c.files} files)`);
    expect(await read(`${SETS}/README.md`)).toContain(`**${n(c.all)} labelled items**`);
  });

  it("keep the second readings apart: each labels a set of the folder, and training reads none", async () => {
    const second = await readdir(path.join(ROOT, SETS, "second-reading"));
    const sets = await readdir(path.join(ROOT, SETS));
    expect(second.length).toBeGreaterThan(0);
    for (const name of second) expect(sets).toContain(name);
    for (const file of await trainingFiles([], ROOT)) expect(file).not.toContain("second-reading");
  });
});
