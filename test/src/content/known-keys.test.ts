import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatIssues } from "../../../src/content/errors.ts";
import { editDistance, knownKeys, nearest } from "../../../src/content/known-keys.ts";
import { ReviewFileSchema } from "../../../src/content/schema.ts";

const FILE = "content/reviews/2026/2026-03-14-maria-g.yaml";

/** The messages for `input` checked against `schema`, with `text` as the file's text. */
function messages(schema: z.ZodType, input: Record<string, unknown>, text: string): string[] {
  const parsed = schema.safeParse(input);
  return parsed.success ? [] : formatIssues(FILE, parsed.error.issues, input, { text, schema });
}

describe("did you mean", () => {
  it("reads the fields of a place in the file from the schema", () => {
    expect(knownKeys(ReviewFileSchema, [])).toEqual(Object.keys(ReviewFileSchema.shape));
    expect(knownKeys(ReviewFileSchema, ["source"])).toEqual(["platform", "url"]);
    expect(knownKeys(ReviewFileSchema, ["response"])).toEqual(["date", "text"]);
    expect(knownKeys(ReviewFileSchema, ["rating"])).toEqual([]);
  });

  it("counts a slip of the keyboard as one edit, swaps included, and ignores case", () => {
    expect(editDistance("auther", "author")).toBe(1);
    expect(editDistance("auhtor", "author")).toBe(1);
    expect(editDistance("Rating", "rating")).toBe(0);
    expect(editDistance("stars", "rating")).toBeGreaterThan(2);
    expect(nearest("verifcation", ["verification", "services"])).toBe("verification");
    expect(nearest("stars", ["rating", "text"])).toBeUndefined();
  });

  it("suggests author for auther, on the line it is written", () => {
    const input = { rating: 5, auther: "Maria G." };
    const text = "rating: 5\nauther: Maria G.\n";
    expect(messages(ReviewFileSchema, input, text)).toContain(
      `${FILE}: line 2: auther is not a known field — did you mean author? If not, remove the line`,
    );
  });

  it("suggests a nested field under its parent", () => {
    const text = "source:\n  plattform: google\n";
    const found = messages(ReviewFileSchema, { source: { plattform: "google" } }, text);
    expect(found).toContain(
      `${FILE}: line 2: source.plattform is not a known field — did you mean platform? If not, remove the line`,
    );
  });

  it("suggests a field the schema gained, with no list to keep in step", () => {
    const extended = ReviewFileSchema.extend({ withdrawn: z.string().optional() });
    const found = messages(extended, { withdrawm: "2026-03-20" }, "withdrawm: 2026-03-20\n");
    expect(found).toContain(
      `${FILE}: line 1: withdrawm is not a known field — did you mean withdrawn? If not, remove the line`,
    );
  });

  it("names the fields there are when nothing is close", () => {
    const found = messages(
      ReviewFileSchema,
      { source: { platform: "google", stars: 5 } },
      "source:\n  platform: google\n  stars: 5\n",
    );
    expect(found).toContain(
      `${FILE}: line 3: source.stars is not a known field — check its spelling or remove it (the fields here are platform, url)`,
    );
  });
});
