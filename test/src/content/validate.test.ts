import path from "node:path";
import jsYaml from "js-yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { ContentError } from "../../../src/content/errors.ts";
import { ReviewFileSchema } from "../../../src/content/schema.ts";
import { type RawContent, validateContent } from "../../../src/content/validate.ts";
import { readContentDir } from "../../../src/io/content-dir.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
/** Just after the fixture's newest review was published: "the future" starts tomorrow. */
const NOW = new Date("2025-03-13T12:00:00Z");

let fixture: RawContent;
beforeAll(async () => {
  fixture = await readContentDir(FIXTURE);
});

/** The display path validateContent uses in messages for a fixture review. */
function fileOf(id: string): string {
  const entry = fixture.reviews.find((r) => path.basename(r.file, ".yaml") === id);
  if (!entry) throw new Error(`no fixture review ${id}`);
  return entry.file;
}

/** The fixture with one review's YAML document changed by `edit`, or replaced by raw text. */
function withReview(id: string, edit: ((doc: Record<string, unknown>) => void) | string): RawContent {
  const reviews = fixture.reviews.map((r) => {
    if (r.file !== fileOf(id)) return r;
    if (typeof edit === "string") return { ...r, text: edit };
    const doc = jsYaml.load(r.text, { schema: jsYaml.CORE_SCHEMA }) as Record<string, unknown>;
    edit(doc);
    return { ...r, text: jsYaml.dump(doc) };
  });
  return { ...fixture, reviews };
}

function problems(raw: RawContent): readonly string[] {
  try {
    validateContent(raw, { now: NOW });
    return [];
  } catch (err) {
    if (!(err instanceof ContentError)) throw err;
    return err.problems;
  }
}

const DANA = "2024-02-29-dana-k";
const GREG = "2024-05-17-greg-h";

describe("validateContent", () => {
  it("accepts the fixture, ids taken from the file names, leap day included", () => {
    const { reviews, business } = validateContent(fixture, { now: NOW });
    expect(business.technicians.map((t) => t.id)).toContain("anika-patel");
    expect(reviews.map((r) => r.id)).toContain(DANA);
    expect(reviews.find((r) => r.id === DANA)?.date).toBe("2024-02-29");
  });

  it.each([
    [6, "6"],
    [0, "0"],
    [4.5, "4.5"],
    ["five", '"five"'],
  ])("rejects rating %s naming file, field and value", (rating, shown) => {
    expect(problems(withReview(DANA, (d) => Object.assign(d, { rating })))).toEqual([
      `${fileOf(DANA)}: line 3: rating: expected a whole number from 1 to 5, got ${shown}`,
    ]);
  });

  it("rejects a date that does not exist and one in the wrong format", () => {
    expect(problems(withReview(DANA, (d) => Object.assign(d, { date: "2024-02-30" })))).toEqual([
      `${fileOf(DANA)}: line 1: date: expected a real calendar date as YYYY-MM-DD, got "2024-02-30"`,
    ]);
    expect(problems(withReview(DANA, (d) => Object.assign(d, { date: "29/02/2024" })))).toEqual([
      `${fileOf(DANA)}: line 1: date: expected a date as YYYY-MM-DD — write 2024-02-29 instead, got "29/02/2024"`,
    ]);
  });

  it("rejects a review date after today and a published_at after now", () => {
    const raw = withReview("2025-03-10-carlos-d", (d) =>
      Object.assign(d, {
        date: "2025-03-14",
        published_at: "2025-03-13T12:00:01Z",
        verification: { method: "invoice", verified_on: "2025-03-14" },
      }),
    );
    const file = fileOf("2025-03-10-carlos-d");
    expect(problems(raw)).toEqual([
      `${file}: line 1: date: must not be in the future (today is 2025-03-13), got "2025-03-14"`,
      `${file}: line 2: published_at: must not be in the future, got "2025-03-13T12:00:01Z"`,
      // Dates refused as in the future are compared with nothing.
      `${file}: line 14: verification.verified_on: must not be in the future (today is 2025-03-13), got "2025-03-14"`,
    ]);
  });

  it("rejects a timestamp without offset or with lower-case separators (Atom needs xsd:dateTime)", () => {
    const told = (ts: string) => problems(withReview(DANA, (d) => Object.assign(d, { published_at: ts })));
    expect(told("2024-03-02 10:15:00")).toEqual([
      `${fileOf(DANA)}: line 2: published_at: expected an RFC 3339 timestamp such as 2024-03-15T09:12:00Z, got "2024-03-02 10:15:00"`,
    ]);
    // Valid RFC 3339, so the message says what is wrong with it.
    expect(told("2024-03-02t10:15:00z")).toEqual([
      `${fileOf(DANA)}: line 2: published_at: expected the T and Z of the timestamp in upper case, as feeds require, such as 2024-03-15T09:12:00Z, got "2024-03-02t10:15:00z"`,
    ]);
  });

  it("requires verification, because only verified reviews are published", () => {
    const [line] = problems(withReview(DANA, (d) => delete d.verification));
    expect(line).toBe(
      `${fileOf(DANA)}: the verification is missing — say how this review was verified (appointment record, invoice, the platform it was posted on, or an email confirmation): add verification: with method: (one of appointment_record, invoice, platform_verified, email_confirmation) and verified_on: (the day you checked, YYYY-MM-DD); the label is shown to readers (docs/editors.md)`,
    );
  });

  it("takes a withdrawn review off the list, and names the allowed reasons for a wrong one", () => {
    const withdrawn = validateContent(
      withReview(DANA, (d) => {
        d.withdrawn = { reason: "author-request", date: "2025-01-01" };
      }),
      { now: NOW },
    );
    expect(withdrawn.reviews.map((r) => r.id)).not.toContain(DANA);
    expect(withdrawn.withdrawn.map((r) => [r.id, r.withdrawn])).toEqual([
      [DANA, { reason: "author-request", date: "2025-01-01" }],
    ]);
    const [line] = problems(
      withReview(DANA, (d) => {
        d.withdrawn = { reason: "negative", date: "2025-01-01" };
      }),
    );
    expect(line).toMatch(new RegExp(`^${fileOf(DANA)}: line \\d+: withdrawn\\.reason: `));
    expect(line).toContain(
      'expected one of confidential-or-private, defamatory-or-harassing, obscene-or-discriminatory, unrelated, false-or-fake, author-request, got "negative"',
    );
  });

  it("rejects a verification dated before the review or in the future", () => {
    const before = withReview(DANA, (d) =>
      Object.assign(d, { verification: { method: "invoice", verified_on: "2024-02-28" } }),
    );
    expect(problems(before)).toEqual([
      `${fileOf(DANA)}: line 15: verification.verified_on: must not be before the review date 2024-02-29, got "2024-02-28"`,
    ]);
    const future = withReview(DANA, (d) =>
      Object.assign(d, { verification: { method: "invoice", verified_on: "2025-03-14" } }),
    );
    expect(problems(future)).toEqual([
      `${fileOf(DANA)}: line 15: verification.verified_on: must not be in the future (today is 2025-03-13), got "2025-03-14"`,
    ]);
  });

  it("rejects text over 5000 characters, reporting the length", () => {
    const raw = withReview(DANA, (d) => Object.assign(d, { text: "a".repeat(5001) }));
    expect(problems(raw)).toEqual([
      `${fileOf(DANA)}: line 6: text: expected review text of at most 5000 characters, got 5001 characters`,
    ]);
    expect(problems(withReview(DANA, (d) => Object.assign(d, { text: "a".repeat(5000) })))).toEqual([]);
  });

  it("rejects unknown fields, top level and nested, one line each", () => {
    const raw = withReview(DANA, (d) => {
      d.stars = 5;
      (d.source as Record<string, unknown>).link = "https://example.com";
    });
    expect(problems(raw)).toEqual([
      `${fileOf(DANA)}: line 13: source.link is not a known field — check its spelling or remove it (the fields here are platform, url)`,
      `${fileOf(DANA)}: line 17: stars is not a known field — check its spelling or remove it (the fields here are ${Object.keys(ReviewFileSchema.shape).join(", ")})`,
    ]);
  });

  it("rejects technician, service and area ids missing from business.yaml", () => {
    const raw = withReview(DANA, (d) =>
      Object.assign(d, { technicians: ["anika-patel", "dr-who"], services: ["reiki"], service_areas: ["portland"] }),
    );
    const lines = problems(raw);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      new RegExp(
        `^${fileOf(DANA)}: line 18: technicians\\[1\\]: unknown id; expected one of anika-patel, .*, got "dr-who"$`,
      ),
    );
    expect(lines[1]).toMatch(
      /: line 20: services\[0\]: unknown id; expected one of spinal-adjustment, .*, got "reiki"$/,
    );
    expect(lines[2]).toMatch(
      /: line 22: service_areas\[0\]: unknown id; expected one of beaverton, .*, got "portland"$/,
    );
  });

  it("rejects an owner response dated before the review", () => {
    const raw = withReview(GREG, (d) => Object.assign(d, { response: { date: "2024-05-16", text: "Thanks, Greg." } }));
    expect(problems(raw)).toEqual([
      `${fileOf(GREG)}: line 16: response.date: must not be before the review date 2024-05-17, got "2024-05-16"`,
    ]);
  });

  it("rejects a review whose date is not in its year folder", () => {
    const raw = withReview(DANA, (d) =>
      Object.assign(d, { date: "2023-12-30", verification: { method: "invoice", verified_on: "2024-01-02" } }),
    );
    expect(problems(raw)).toEqual([
      `${fileOf(DANA)}: line 1: date: must fall in 2024, the year folder the file is in, got "2023-12-30"`,
    ]);
  });

  it("rejects invalid YAML naming the line and what to do, and a repeated key", () => {
    const broken = "date: 2024-02-29\nrating: [5\nauthor: Dana K.\n";
    expect(problems(withReview(DANA, broken))).toEqual([
      `${fileOf(DANA)}: line 2: the rating opens with [ but it is never closed — end it with ] on the same line`,
    ]);
    const repeated = `${fixture.reviews.find((r) => r.file === fileOf(DANA))?.text}rating: 4\n`;
    expect(problems(withReview(DANA, repeated))).toEqual([
      `${fileOf(DANA)}: line 14: rating appears twice (also on line 3) — keep the one you mean and delete the other`,
    ]);
  });

  it("stops a YAML alias bomb at the line where its aliases grow too large, naming the file", () => {
    const level = (name: string, of: string) => `${name}: &${name} [${Array(9).fill(of).join(",")}]`;
    const bomb = [
      level("a", '"lol"'),
      ...["b", "c", "d", "e", "f", "g", "h", "i"].map((n, i) => level(n, `*${"abcdefgh"[i]}`)),
      "",
    ].join("\n");
    expect(bomb.length).toBeLessThan(700);
    const lines = problems(withReview(DANA, bomb));
    expect(lines).toEqual([
      `${fileOf(DANA)}: line 5: too many aliases: they expand to more than 10000 nodes — a review file needs no aliases (*name), write the values out`,
    ]);
  });

  it("refuses a value that contains itself through an alias, naming the line, with no stack overflow", () => {
    const text = fixture.reviews.find((r) => r.file === fileOf(DANA))?.text ?? "";
    expect(problems(withReview(DANA, `${text}loop: &loop [*loop]\n`))).toEqual([
      `${fileOf(DANA)}: line ${text.split("\n").length}: a value contains itself through an alias — a review file needs no aliases (*name), write the values out`,
    ]);
  });

  it("says once what two checks of one value both find", () => {
    const text = fixture.reviews.find((r) => r.file === fileOf(DANA))?.text ?? "";
    const huge = text.replace(/^rating: \d+$/m, "rating: 99999999999999999999999");
    expect(huge).not.toBe(text);
    expect(problems(withReview(DANA, huge))).toEqual([
      `${fileOf(DANA)}: line ${text.split("\n").findIndex((l) => l.startsWith("rating:")) + 1}: rating: expected a whole number from 1 to 5, got 1e+23`,
    ]);
  });

  it("names the first 20 unknown fields of a place and counts the rest in one line", () => {
    const text = fixture.reviews.find((r) => r.file === fileOf(DANA))?.text ?? "";
    const pasted = Array.from({ length: 50 }, (_, i) => `extra${i}: x`).join("\n");
    const lines = problems(withReview(DANA, `${text}${pasted}\n`));
    expect(lines).toHaveLength(21);
    expect(lines[0]).toMatch(
      new RegExp(`^${fileOf(DANA)}: line ${text.split("\n").length}: extra0 is not a known field`),
    );
    expect(lines[20]).toBe(
      `${fileOf(DANA)}: 30 more fields are not known fields either — remove them (the first 20 are named above)`,
    );
  });

  it("accepts a few small aliases", () => {
    const text = fixture.reviews.find((r) => r.file === fileOf(DANA))?.text ?? "";
    const aliased = text
      .replace("date: 2024-02-29", "date: &day 2024-02-29")
      .replace(/verified_on: .*/, "verified_on: *day");
    expect(aliased).toContain("*day");
    expect(problems(withReview(DANA, aliased))).toEqual([]);
  });

  it("reports every problem of every file in one error", () => {
    const raw = withReview(DANA, (d) => Object.assign(d, { rating: 9, author: "" }));
    raw.reviews = raw.reviews.map((r) => (r.file === fileOf(GREG) ? { ...r, text: "rating: [" } : r));
    const lines = problems(raw);
    expect(lines).toHaveLength(3);
    expect(lines.filter((l) => l.startsWith(`${fileOf(DANA)}: `))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith(`${fileOf(GREG)}: line 1: the rating opens with [`))).toHaveLength(1);
  });
});
