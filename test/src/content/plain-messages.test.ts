import path from "node:path";
import fc from "fast-check";
import jsYaml from "js-yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { ContentError } from "../../../src/content/errors.ts";
import { type RawContent, validateContent } from "../../../src/content/validate.ts";
import { findYamlMistakes, mayHideMistake } from "../../../src/content/yaml-mistakes.ts";
import { readContentDir } from "../../../src/io/content-dir.ts";

/**
 * Whatever an editor does to a review file, every message names the file and the line (or says
 * which field is missing) and shows none of a programmer's words: sample files are broken at
 * random, the way hands and word processors break them.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const NOW = new Date("2025-03-13T12:00:00Z");
const JARGON = /\bnull\b|\bundefined\b|\bNaN\b|\[object Object\]|\n\s+at |YAMLException|Error:/;

/** Controls, bidirectional controls, invisible characters and line separators (characters.ts). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/;

let fixture: RawContent;
beforeAll(async () => {
  fixture = await readContentDir(FIXTURE);
});

function readsAsYaml(text: string): boolean {
  try {
    jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA });
    return true;
  } catch {
    return false;
  }
}

type Edit = (lines: string[]) => string[];
const at = (lines: string[], i: number) => i % Math.max(1, lines.length);

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc
    .tuple(
      fc.nat(),
      fc.nat(),
      fc.constantFrom(
        ...[":", " ", "#", "\t", "“", "”", "'", '"', "-", "|", "[", "{", "&", "*", "!", "%", "@", "`"],
        // Pasted from elsewhere: a non-breaking space, a bell, a right-to-left override, a zero-width space.
        ...["\u00a0", "\u0007", "\u202e", "\u200b", "\u001b[31m"],
      ),
    )
    .map(
      ([i, j, c]): Edit =>
        (lines) =>
          lines.map((l, k) =>
            k === at(lines, i) ? `${l.slice(0, j % (l.length + 1))}${c}${l.slice(j % (l.length + 1))}` : l,
          ),
    ),
  fc.tuple(fc.nat(), fc.nat()).map(
    ([i, j]): Edit =>
      (lines) =>
        lines.map((l, k) =>
          k === at(lines, i) ? l.slice(0, j % (l.length + 1)) + l.slice((j % (l.length + 1)) + 1) : l,
        ),
  ),
  fc.nat().map(
    (i): Edit =>
      (lines) =>
        lines.filter((_, k) => k !== at(lines, i)),
  ),
  fc.nat().map(
    (i): Edit =>
      (lines) =>
        lines.flatMap((l, k) => (k === at(lines, i) ? [l, l] : [l])),
  ),
  fc.nat().map(
    (i): Edit =>
      (lines) =>
        lines.map((l, k) => (k === at(lines, i) ? l.trimStart() : l)),
  ),
  fc.nat().map(
    (i): Edit =>
      (lines) =>
        lines.map((l, k) => (k === at(lines, i) ? `  ${l}` : l)),
  ),
  // Indentation from a word processor: non-breaking spaces.
  fc.nat().map(
    (i): Edit =>
      (lines) =>
        lines.map((l, k) => (k === at(lines, i) ? `\u00a0\u00a0${l.trimStart()}` : l)),
  ),
  fc
    .tuple(
      fc.nat(),
      fc.constantFrom(
        "",
        "~",
        "null",
        ".nan",
        ".inf",
        "-.inf",
        "[]",
        "{}",
        "true",
        "-1",
        "6",
        '""',
        "“5”",
        "[a, b]",
        "{a: 1}",
        "11/28/2024",
        "28.11.2024",
        "Nov 28 2024",
        "'Best chiro' says my wife",
        '"Best" chiro',
        "*Best* chiro",
        "&best chiro",
        "@home",
        '"\\e[31mred"',
        '"\\udfff"',
        '"a\\u202eb"',
        "'unclosed",
      ),
    )
    .map(
      ([i, v]): Edit =>
        (lines) =>
          lines.map((l, k) => (k === at(lines, i) && l.includes(":") ? `${l.slice(0, l.indexOf(":") + 1)} ${v}` : l)),
    ),
);

describe("messages about broken review files", () => {
  it("name the file and the line, and never show null, undefined, NaN or a stack trace", () => {
    const files = fixture.reviews.map((r) => r.file);
    fc.assert(
      fc.property(fc.nat({ max: files.length - 1 }), fc.array(edit, { minLength: 1, maxLength: 4 }), (n, edits) => {
        const file = files[n] as string;
        const original = fixture.reviews.find((r) => r.file === file)?.text ?? "";
        const text = edits.reduce((lines, e) => e(lines), original.split("\n")).join("\n");
        const reviews = fixture.reviews.map((r) => (r.file === file ? { ...r, text } : r));
        // The quick test that lets a file YAML reads skip the scan never skips one with a mistake.
        if (readsAsYaml(text) && findYamlMistakes(text).length > 0) expect(mayHideMistake(text), text).toBe(true);
        let problems: readonly string[] = [];
        try {
          validateContent({ ...fixture, reviews }, { now: NOW });
        } catch (err) {
          if (!(err instanceof ContentError)) throw err;
          problems = err.problems;
        }
        for (const p of problems) {
          expect(p.startsWith(`${file}: `), p).toBe(true);
          expect(p, p).toMatch(/^[^:]+: (line \d+: |the [\w.[\]]+ is missing — )/);
          // A message may quote what the editor wrote, which can itself say "null" (seed 338126380):
          // the words are the program's only when the file does not contain them.
          if (!JARGON.test(text)) expect(p, p).not.toMatch(JARGON);
          // Printable on one line: nothing the file held can start a line or move the cursor.
          expect(UNPRINTABLE.test(p), p).toBe(false);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it("show an empty key as it was written, not as the word null", () => {
    // Found by the property above (seed 1394371628): js-yaml reads `[:]` as a key "null".
    const file = fixture.reviews[0]?.file as string;
    const original = fixture.reviews[0]?.text as string;
    const text = original.replace(/^date: .*$/m, "date: [:]");
    const reviews = fixture.reviews.map((r) => (r.file === file ? { ...r, text } : r));
    expect(() => validateContent({ ...fixture, reviews }, { now: NOW })).toThrow(
      expect.objectContaining({
        problems: expect.arrayContaining([expect.stringMatching(/date: .*got \[\{: nothing\}\]$/)]),
      }),
    );
  });
});
