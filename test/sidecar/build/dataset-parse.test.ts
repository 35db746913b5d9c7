import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { parseDataset } from "../../../sidecar/build/dataset-parse.ts";
import { buildDataset } from "../../../src/content/dataset.ts";
import { type ReviewsDataset, ReviewsDatasetSchema } from "../../../src/content/records.ts";
import { loadContent } from "../../../src/io/content-dir.ts";
import { parseDistJson } from "../../../src/io/dist-files.ts";
import { datasetJsonPieces } from "../../../src/site/dataset-json.ts";
import { PROJECT_CONTENT } from "../../helpers/project-content.ts";

const DIR = "/srv/build";
let base: ReviewsDataset;

beforeAll(async () => {
  base = buildDataset(
    await loadContent(PROJECT_CONTENT, { now: new Date("2030-01-01T00:00:00Z") }),
    "https://reviews.test",
  );
});

/** The bytes of `/reviews.json` as the build writes them. */
const fileOf = (d: ReviewsDataset) => Buffer.from([...datasetJsonPieces(d)].join(""));
/** What the server had before: the plain parse of a file. */
const plain = (bytes: Uint8Array) => parseDistJson(DIR, "/reviews.json", bytes, ReviewsDatasetSchema);

/** An edit of the dataset: reviews changed, removed, added (copies under a new id), the business renamed. */
const editArb = () =>
  fc.record({
    changed: fc.uniqueArray(fc.nat(129), { maxLength: 4 }),
    removed: fc.uniqueArray(fc.nat(129), { maxLength: 3 }),
    added: fc.nat(2),
    renamed: fc.boolean(),
  });

function edited(d: ReviewsDataset, e: { changed: number[]; removed: number[]; added: number; renamed: boolean }) {
  const n = d.reviews.length;
  const reviews = d.reviews
    .map((r, i) => (e.changed.includes(i % n) ? { ...r, text: `${r.text} Edited “again”.` } : r))
    .filter((_, i) => !e.removed.includes(i % n));
  for (let k = 0; k < e.added; k++) {
    const from = d.reviews[k] as (typeof d.reviews)[number];
    reviews.unshift({ ...from, id: `${from.id}-copy-${k}`, text: `A new one, ${k}.` });
  }
  const business = e.renamed ? { ...d.business, name: `${d.business.name} and Partners` } : d.business;
  return { ...d, business, reviews };
}

describe("parseDataset", () => {
  it("gives exactly the plain parse, keeping the served build's record for every review whose bytes are unchanged", () => {
    const before = fileOf(base);
    const previous = { body: before, dataset: plain(before) };
    fc.assert(
      fc.property(editArb(), (e) => {
        const after = fileOf(edited(base, e));
        const got = parseDataset(DIR, after, previous);
        const want = plain(after);
        expect(got).toEqual(want);
        expect(JSON.stringify(got)).toBe(JSON.stringify(want));
        const old = new Map(previous.dataset.reviews.map((r) => [r.id, r]));
        for (const r of got.reviews) {
          const same = JSON.stringify(r) === JSON.stringify(old.get(r.id));
          // Kept means the very object; a changed or new review is a fresh parse.
          expect(r === old.get(r.id)).toBe(same);
        }
      }),
      { numRuns: 30 },
    );
  });

  it("goes the plain way, with its error, for another layout or a review that breaks the schema", () => {
    const before = fileOf(base);
    const previous = { body: before, dataset: plain(before) };
    // Compact JSON: the same data, no reviews kept.
    const compact = Buffer.from(JSON.stringify(base));
    const got = parseDataset(DIR, compact, previous);
    expect(got).toEqual(plain(compact));
    expect(got.reviews[0]).not.toBe(previous.dataset.reviews[0]);
    // A changed review with a rating out of range: the same error the plain parse gives.
    const bad = fileOf({
      ...base,
      reviews: [{ ...(base.reviews[0] as (typeof base.reviews)[number]), rating: 9 }, ...base.reviews.slice(1)],
    });
    expect(() => plain(bad)).toThrow(/rating/);
    expect(() => parseDataset(DIR, bad, previous)).toThrow(
      (() => {
        try {
          plain(bad);
        } catch (err) {
          return (err as Error).message;
        }
        return "";
      })(),
    );
    // Bytes that are not JSON where a review was.
    const broken = Buffer.from(before.toString("utf8").replace('"rating": 5', '"rating": 5,,'));
    expect(() => parseDataset(DIR, broken, previous)).toThrow(/not JSON/);
  });
});
