import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MentionsMemo, reviewFields } from "../../../src/content/dataset.ts";
import { type Content, inspectContent, type ValidateOptions } from "../../../src/content/validate.ts";
import { parseContentYaml } from "../../../src/content/yaml.ts";
import { readContentDir } from "../../../src/io/content-dir.ts";
import { jsonExact, yamlCache } from "../../../src/io/yaml-cache.ts";
import { PROJECT_CONTENT } from "../../helpers/project-content.ts";

const CONTENT = PROJECT_CONTENT;
let dir: string;
let files: { file: string; text: string }[];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "pr-yaml-"));
  files = (await readContentDir(CONTENT)).reviews;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Parses every file through a fresh cache over `folder`, as one build does. */
function build(folder: string, list = files) {
  const cache = yamlCache(folder);
  const out = list.map(({ file, text }) => {
    const problems: string[] = [];
    return { value: cache.parse(file, text, problems), problems };
  });
  cache.finish();
  return out;
}

const plain = (list = files) =>
  list.map(({ file, text }) => {
    const problems: string[] = [];
    return { value: parseContentYaml(file, text, problems), problems };
  });

describe("parsed review cache", () => {
  it("gives what the parser gives, cold and warm, and keeps one pack of this build's files", async () => {
    const folder = path.join(dir, "sample");
    expect(build(folder)).toEqual(plain());
    expect(build(folder)).toEqual(plain());
    const packs = (await readdir(folder)).filter((n) => n.endsWith(".pack"));
    expect(packs).toHaveLength(1);
    const lines = (await readFile(path.join(folder, packs[0] as string), "utf8")).trim().split("\n");
    expect(lines.length).toBe(new Set(files.map((f) => f.text)).size);
    // Fewer files: the cache shrinks with them.
    build(folder, files.slice(0, 5));
    const after = (await readdir(folder)).filter((n) => n.endsWith(".pack"));
    expect((await readFile(path.join(folder, after[0] as string), "utf8")).trim().split("\n")).toHaveLength(5);
  });

  it("parses a file again when its entry is damaged", async () => {
    const folder = path.join(dir, "damaged");
    build(folder);
    const [name] = (await readdir(folder)).filter((n) => n.endsWith(".pack"));
    const file = path.join(folder, name as string);
    const lines = (await readFile(file, "utf8")).split("\n");
    lines[0] = `${(lines[0] as string).slice(0, 65)}{"cut`;
    await writeFile(file, lines.join("\n"));
    expect(build(folder)).toEqual(plain());
    expect(build(folder)).toEqual(plain());
  });

  it("gives the same value and the same problems for any YAML, and stores only what JSON keeps exactly", () => {
    const folder = path.join(dir, "property");
    const scalar = fc.oneof(
      fc.constantFrom(
        ".inf",
        "-.inf",
        ".nan",
        "-0",
        "0x1F",
        "1e3",
        "null",
        "~",
        "true",
        "no",
        "'quoted'",
        "2024-01-01",
      ),
      fc.string({ maxLength: 12 }),
      fc.integer().map(String),
      fc.double({ noNaN: true }).map(String),
    );
    const key = fc.constantFrom("text", "rating", "__proto__", "a b", "date");
    const doc = fc
      .array(fc.tuple(key, scalar), { maxLength: 6 })
      .map((pairs) => pairs.map(([k, v]) => `${k}: ${v}`).join("\n"));
    fc.assert(
      fc.property(doc, (text) => {
        const f = [{ file: "content/reviews/2024/x.yaml", text }];
        const expected = plain(f);
        expect(build(folder, f)).toEqual(expected);
        expect(build(folder, f)).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it("tells which values JSON gives back exactly", () => {
    expect(jsonExact({ a: [1, "x", null, true, { b: 2.5 }] })).toBe(true);
    expect(jsonExact({ a: Number.POSITIVE_INFINITY })).toBe(false);
    expect(jsonExact({ a: Number.NaN })).toBe(false);
    expect(jsonExact([-0])).toBe(false);
    expect(jsonExact(JSON.parse('{"__proto__": 1}'))).toBe(false);
    expect(jsonExact(new Date(0))).toBe(false);
  });
});

describe("checked review cache", () => {
  const now = new Date("2026-12-01T12:00:00Z");

  /** One content check through a fresh cache over `folder`, as one build makes it; counts the files parsed. */
  async function check(folder: string, raw: Awaited<ReturnType<typeof readContentDir>>, at = now) {
    const cache = yamlCache(folder);
    let parsed = 0;
    const parse: NonNullable<ValidateOptions["parse"]> = (file, text, problems) => {
      if (file.includes("/reviews/")) parsed++;
      return cache.parse(file, text, problems);
    };
    const result = inspectContent(raw, { now: at, parse, checked: cache.checked });
    cache.finish();
    return { result, parsed };
  }

  it("gives back what the check made of a file, without checking it again", async () => {
    const folder = path.join(dir, "checked");
    const raw = await readContentDir(CONTENT);
    const expected = inspectContent(raw, { now });
    expect(expected.problems).toEqual([]);
    const cold = await check(folder, raw);
    expect(cold.parsed).toBe(raw.reviews.length);
    const warm = await check(folder, raw);
    expect(warm.parsed).toBe(0);
    // Entries as the check makes them, key order included (records are built from them).
    expect(JSON.stringify(warm.result)).toBe(JSON.stringify(expected));
    expect(JSON.stringify(cold.result)).toBe(JSON.stringify(expected));
  });

  it("checks again what the context changes: the folder, business.yaml, the day", async () => {
    const folder = path.join(dir, "context");
    const raw = await readContentDir(CONTENT);
    await check(folder, raw);
    const i = raw.reviews.findIndex((r) => /^technicians: \[sofia-ramirez\]$/m.test(r.text));
    const target = raw.reviews[i] as { file: string; text: string };

    // The same text in another year folder: its date no longer falls in the folder's year.
    const moved = {
      ...raw,
      reviews: raw.reviews.map((r, j) => (j === i ? { ...r, file: r.file.replace(/\/20\d\d\//, "/2019/") } : r)),
    };
    const inFolder = await check(folder, moved);
    expect(inFolder.parsed).toBe(1);
    expect(inFolder.result.problems.join("\n")).toMatch(/2019.*must fall in 2019/);

    // A practitioner taken out of business.yaml: the review naming her is now wrong.
    const business = {
      ...raw.business,
      text: (raw.business.text ?? "").replace(/- id: sofia-ramirez/, "- id: sofia-r"),
    };
    const renamed = await check(folder, { ...raw, business });
    expect(renamed.parsed).toBe(raw.reviews.length);
    expect(renamed.result.problems.join("\n")).toContain(path.basename(target.file));

    // Another day: checked again, every file still parsed from the cache.
    const nextDay = await check(folder, raw, new Date("2026-12-02T08:00:00Z"));
    expect(nextDay.parsed).toBe(raw.reviews.length);
    expect(nextDay.result.problems).toEqual([]);
    expect((await check(folder, raw, new Date("2026-12-02T09:00:00Z"))).parsed).toBe(0);
  });

  it("keeps no file that had a problem", async () => {
    const folder = path.join(dir, "problem");
    const raw = await readContentDir(CONTENT);
    const broken = {
      ...raw,
      reviews: raw.reviews.map((r, j) => (j === 0 ? { ...r, text: r.text.replace(/^rating: \d/m, "rating: 9") } : r)),
    };
    const first = await check(folder, broken);
    const second = await check(folder, broken);
    expect(second.parsed).toBe(1);
    expect(second.result.problems).toEqual(first.result.problems);
    expect(second.result.problems.join("\n")).toMatch(/rating/);
  });
});

describe("mentions cache", () => {
  const now = new Date("2026-12-01T12:00:00Z");

  /** The logged fields of every review, through a fresh cache over `folder`; counts the reviews matched. */
  async function fields(folder: string, content: Content) {
    const cache = yamlCache(folder);
    const memo = cache.mentions?.(content.business);
    let matched = 0;
    const counting: MentionsMemo | undefined = memo && {
      get: (r, scanned) => memo.get(r, scanned),
      put: (r, scanned, m) => {
        matched++;
        memo.put(r, scanned, m);
      },
    };
    const out = reviewFields(content, counting);
    cache.finish();
    return { out, matched };
  }

  it("gives what matching gives, and matches again what the catalogue, the text or the explicit ids change", async () => {
    const folder = path.join(dir, "mentions");
    const raw = await readContentDir(CONTENT);
    const { business, reviews } = inspectContent(raw, { now });
    const content = { business: business as Content["business"], reviews };
    const expected = reviewFields(content);
    expect(expected.some((f) => f.technicians.length > 0 && f.services.length > 0)).toBe(true);

    const cold = await fields(folder, content);
    expect(cold.matched).toBe(reviews.length);
    const warm = await fields(folder, content);
    expect(warm.matched).toBe(0);
    expect(JSON.stringify(warm.out)).toBe(JSON.stringify(expected));

    // One review's text, then one review's explicit ids: that review alone is matched again.
    const edited = { ...content, reviews: reviews.map((r, i) => (i === 1 ? { ...r, text: `${r.text} Edited.` } : r)) };
    expect((await fields(folder, edited)).matched).toBe(1);
    const named = {
      ...edited,
      reviews: edited.reviews.map((r, i) =>
        i === 2 ? { ...r, services: [...r.services, content.business.services[0]?.id as string] } : r,
      ),
    };
    const byIds = await fields(folder, named);
    expect(byIds.matched).toBe(1);
    expect(JSON.stringify(byIds.out)).toBe(JSON.stringify(reviewFields(named)));

    // A practitioner's new alias: every review is matched again, and one that uses it now names her.
    // (Each build keeps only the entries it used, so the builds above each change the last one.)
    const [first] = content.business.technicians;
    const alias = "Dr. Wobbleton";
    const aliased = {
      ...content,
      business: {
        ...content.business,
        technicians: content.business.technicians.map((t) =>
          t === first ? { ...t, aliases: [...t.aliases, alias] } : t,
        ),
      },
      reviews: reviews.map((r, i) => (i === 0 ? { ...r, text: `${r.text} ${alias} again.` } : r)),
    };
    const again = await fields(folder, aliased);
    expect(again.matched).toBe(reviews.length);
    expect(again.out[0]?.technicians).toContain(first?.id);
    expect(JSON.stringify(again.out)).toBe(JSON.stringify(reviewFields(aliased)));
  });
});
