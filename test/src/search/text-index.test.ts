import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { buildDataset } from "../../../src/content/dataset.ts";
import { loadContent } from "../../../src/io/content-dir.ts";
import { positionsOf } from "../../../src/search/bitset.ts";
import { searchText } from "../../../src/search/query.ts";
import { createTextIndex } from "../../../src/search/text-index.ts";
import { PROJECT_CONTENT } from "../../helpers/project-content.ts";

const CONTENT = PROJECT_CONTENT;
let texts: string[];

beforeAll(async () => {
  const dataset = buildDataset(await loadContent(CONTENT, { now: new Date("2030-01-01T00:00:00Z") }), "https://x.test");
  texts = dataset.reviews.map((r) => searchText(r.text));
});

const expected = (all: readonly string[], needle: string) => all.flatMap((t, i) => (t.includes(needle) ? [i] : []));

describe("word index substring search", () => {
  it("finds exactly the texts that include a slice of any review text (across words and punctuation)", () => {
    const index = createTextIndex(texts);
    const slice = fc
      .tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 40 }))
      .map(([t, start, len]) => {
        const text = texts[t % texts.length] as string;
        const from = start % Math.max(1, text.length);
        return text.slice(from, from + len);
      })
      .filter((s) => s.length > 0);
    fc.assert(
      fc.property(slice, (needle) => {
        expect(positionsOf(index.matches(needle))).toEqual(expected(texts, needle));
      }),
      { numRuns: 400 },
    );
  });

  it("agrees with includes on made-up texts and needles over an alphabet of letters, separators and non-ASCII", () => {
    const unit = fc.constantFrom("a", "b", "é", "-", "'", " ", ".", ",", "!", "1", "😀", "\u0301");
    const str = (max: number) => fc.array(unit, { minLength: 1, maxLength: max }).map((a) => a.join(""));
    fc.assert(
      fc.property(
        fc.array(str(30), { minLength: 0, maxLength: 40 }),
        fc.array(str(6), { minLength: 1, maxLength: 5 }),
        (all, needles) => {
          const index = createTextIndex(all);
          for (const needle of needles) {
            expect(positionsOf(index.matches(needle))).toEqual(expected(all, needle));
            // Asked again, from the memo: the same answer.
            expect(positionsOf(index.matches(needle))).toEqual(expected(all, needle));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("handles a needle that splits a surrogate pair", () => {
    const index = createTextIndex(["a😀b", "xy", "😀"]);
    const low = "😀".slice(1);
    expect(positionsOf(index.matches(`${low}b`))).toEqual([0]);
    expect(positionsOf(index.matches(low))).toEqual([0, 2]);
  });
});
