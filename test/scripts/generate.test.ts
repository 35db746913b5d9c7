import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import fc from "fast-check";
import jsYaml from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const parseYaml = (text: string) => jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA });

import { parseCliArgs, UsageError } from "../../scripts/generate/args.ts";
import { ASPECT_PHRASES } from "../../scripts/generate/aspect-phrases.ts";
import { firstDay } from "../../scripts/generate/content.ts";
import { reviewYaml } from "../../scripts/generate/review-yaml.ts";
import * as story from "../../scripts/generate/story-phrases.ts";
import * as vocabulary from "../../scripts/generate/vocabulary.ts";
import { writeContent } from "../../scripts/generate/write-content.ts";
import { buildDataset } from "../../src/content/dataset.ts";
import { createMatcher } from "../../src/content/mentions.ts";
import type { ReviewsDataset } from "../../src/content/records.ts";
import type { Content } from "../../src/content/validate.ts";
import { loadContent } from "../../src/io/content-dir.ts";
import { loadInsightsContent } from "../../src/io/insights-dir.ts";
import { buildSite } from "../helpers/build-site.ts";
import { PROJECT_CONTENT } from "../helpers/project-content.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const NODE = path.join(ROOT, "node_modules/.bin/node");
const BUSINESS = path.join(PROJECT_CONTENT, "business.yaml");
const UNTIL = "2026-11-20";
/** The end of the anchor day: the latest clock at which the set must be valid. */
const NOW = new Date(`${UNTIL}T23:59:59Z`);
const run = promisify(execFile);

let tmp: string;
const dir = (name: string) => path.join(tmp, name);
const generate = (out: string, seed: string, reviews = 300, force = false) =>
  writeContent({ reviews, seed, until: UNTIL, out, business: BUSINESS, force });

function cli(...args: string[]) {
  return run(NODE, ["scripts/generate.ts", ...args], { cwd: ROOT }).then(
    (r) => ({ code: 0, ...r }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );
}

/** sha256 over every relative path and its bytes, in sorted order. */
async function hashTree(root: string): Promise<string> {
  const hash = createHash("sha256");
  const files = (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
  for (const f of files)
    hash
      .update(`${f}\0`)
      .update(await readFile(path.join(root, f)))
      .update("\0");
  return hash.digest("hex");
}

let content: Content;
let dataset: ReviewsDataset;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "pr-generate-"));
  const viaCli = await cli("--reviews", "300", "--out", dir("a"), "--seed", "alpha", "--business", BUSINESS);
  expect(viaCli.stderr).toBe("");
  expect(viaCli.stdout).toMatch(/^Wrote 300 reviews dated 2022-11-21 to 2026-11-20 \(306 files\)/);
  await generate(dir("b"), "alpha");
  await generate(dir("c"), "beta");
  content = await loadContent(dir("a"), { now: NOW });
  dataset = buildDataset(content, "http://localhost:4321");
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe("generated content", () => {
  it("passes the content validator with every review inside the date range", () => {
    expect(content.reviews).toHaveLength(300);
    const first = firstDay(UNTIL);
    for (const r of content.reviews) {
      expect(r.date >= first && r.date <= UNTIL, `${r.id}: ${r.date}`).toBe(true);
      expect(r.id.startsWith(r.date)).toBe(true);
    }
  });

  it("is byte-identical for the same seed, whether written by the CLI or the library", async () => {
    expect(await hashTree(dir("a"))).toBe(await hashTree(dir("b")));
  });

  it("differs for another seed", async () => {
    expect(await hashTree(dir("c"))).not.toBe(await hashTree(dir("a")));
  });

  it("mentions every technician, service and area, and uses every rating", () => {
    const seen = (key: "technicians" | "services" | "service_areas") => new Set(dataset.reviews.flatMap((r) => r[key]));
    expect(seen("technicians")).toEqual(new Set(content.business.technicians.map((t) => t.id)));
    expect(seen("services")).toEqual(new Set(content.business.services.map((s) => s.id)));
    expect(seen("service_areas")).toEqual(new Set(content.business.service_areas.map((a) => a.id)));
    expect(new Set(dataset.reviews.map((r) => r.rating))).toEqual(new Set([1, 2, 3, 4, 5]));
  });

  it("varies length, titles, replies, platforms and verification", () => {
    const { reviews } = dataset;
    const share = (pred: (r: (typeof reviews)[number]) => boolean) => reviews.filter(pred).length / reviews.length;
    expect(share((r) => !/[.!?;] /.test(r.text.trim()))).toBeGreaterThan(0.05);
    expect(share((r) => r.text.includes("\n\n"))).toBeGreaterThan(0.15);
    expect(share((r) => r.title === null)).toBeGreaterThan(0.1);
    expect(share((r) => r.response !== null)).toBeGreaterThan(0.15);
    expect(share((r) => r.response !== null)).toBeLessThan(0.4);
    expect(new Set(reviews.map((r) => r.source.platform)).size).toBe(5);
    expect(new Set(reviews.map((r) => r.verification.method)).size).toBe(4);
    // One-liners repeat, as "Highly recommend." does on any real site; longer texts never do.
    const long = reviews.filter((r) => r.text.length > 200).map((r) => r.text);
    expect(long.length).toBeGreaterThan(100);
    expect(new Set(long).size).toBe(long.length);
  });

  it("copies the business and insights files and writes a FAQ citing generated reviews", async () => {
    // The lexicon and the learned models too: a generated site is read as the practice's own is,
    // so the benchmark's builds time the analysis the real content gets.
    const copies = ["aspects.yaml", "sentiment.yaml", "model.json", "summary.md"].map((f) => `insights/${f}`);
    for (const f of ["business.yaml", ...copies]) {
      expect(await readFile(dir(`a/${f}`), "utf8")).toBe(await readFile(path.join(PROJECT_CONTENT, f), "utf8"));
    }
    const insights = await loadInsightsContent(
      dir("a"),
      content.reviews.map((r) => r.id),
    );
    expect(insights.faq.length).toBeGreaterThan(3);
    for (const item of insights.faq) expect(new Set(item.evidence).size).toBe(item.evidence.length);
  });
});

describe("astro build of a generated set", () => {
  it("succeeds and publishes every generated review", async () => {
    await generate(dir("site"), "site", 200);
    const built = await buildSite(dir("site"));
    expect(built.code, built.stderr).toBe(0);
    const published = JSON.parse(await readFile(path.join(built.distDir, "reviews.json"), "utf8")) as ReviewsDataset;
    expect(published.aggregate_rating.review_count).toBe(200);
    await rm(built.distDir, { recursive: true, force: true });
  }, 300_000); // Waits its turn on the machine-wide build lock.
});

describe("generator command line", () => {
  it.each([
    [["--reviews", "abc", "--out", "x"], '--reviews must be an integer from 1 to 1000000, got "abc"'],
    [["--reviews", "0", "--out", "x"], '--reviews must be an integer from 1 to 1000000, got "0"'],
    [["--reviews=2000000", "--out", "x"], '--reviews must be an integer from 1 to 1000000, got "2000000"'],
    [["--out", "x"], "--reviews is required"],
    [["--reviews", "5"], "--out is required"],
    [
      ["--reviews", "5", "--out", "x", "--until", "2026-02-30"],
      '--until must be a real date as YYYY-MM-DD from 2000-01-01 on, got "2026-02-30"',
    ],
    [
      ["--reviews", "5", "--out", "x", "--seed", "a b"],
      '--seed must be 1 to 64 letters, digits, dots, underscores or hyphens, got "a b"',
    ],
    [["--reviews", "5", "--out", "x", "--review", "6"], 'unknown argument "--review"'],
    [["--reviews", "5", "--out"], "--out needs a value"],
    [["--reviews", "5", "--out", "x", "--force=yes"], '--force takes no value, got "yes"'],
  ])("rejects %j naming the flag", (argv, message) => {
    expect(() => parseCliArgs(argv, () => "content")).toThrow(UsageError);
    expect(() => parseCliArgs(argv, () => "content")).toThrow(message);
  });

  it("exits 2 with the flag and value on stderr", async () => {
    const r = await cli("--reviews", "abc", "--out", dir("never"));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('generate: --reviews must be an integer from 1 to 1000000, got "abc"\n');
  });

  it("refuses a non-empty folder without --force and replaces the set with it", async () => {
    const out = dir("force");
    await cp(dir("a"), out, { recursive: true });
    await expect(generate(out, "alpha", 20)).rejects.toThrow(/--out must be an empty or new folder.*--force/);
    await generate(out, "alpha", 20, true);
    const reloaded = await loadContent(out, { now: NOW });
    expect(reloaded.reviews).toHaveLength(20);
  });

  it("refuses to write into the folder the business file comes from", async () => {
    const source = dir("source");
    await cp(BUSINESS, path.join(source, "business.yaml"));
    await writeFile(path.join(source, "keep.txt"), "real content\n");
    await expect(
      writeContent({
        reviews: 5,
        seed: "x",
        until: UNTIL,
        out: source,
        business: path.join(source, "business.yaml"),
        force: true,
      }),
    ).rejects.toThrow(/--out must not be the folder --business is read from/);
    expect(await readdir(source)).toEqual(["business.yaml", "keep.txt"]);
  });
});

describe("generator building blocks", () => {
  it("writes YAML that reads back as the same review, whatever the strings", () => {
    const text = fc
      .string({ minLength: 1, maxLength: 40 })
      .map((s) => s.replace(/\s+/g, " ").trim())
      .filter((s) => s.length > 0);
    fc.assert(
      fc.property(text, text, fc.array(text, { minLength: 1, maxLength: 3 }), (author, title, paragraphs) => {
        const review = {
          date: "2024-03-14",
          published_at: "2024-03-15T09:12:00Z",
          rating: 4,
          author,
          title,
          text: paragraphs.join("\n\n"),
          source: { platform: "google" as const, url: "https://www.google.example/maps/reviews/a#b" },
          verification: { method: "invoice" as const, verified_on: "2024-03-16" },
          technicians: ["anika-patel"],
        };
        const back = parseYaml(reviewYaml(review));
        expect(back).toEqual({ ...review, text: `${review.text}\n` });
      }),
    );
  });

  it("names catalogue entries only through slots, so planned mentions are the only ones", async () => {
    const business = content.business;
    const matchers = [business.technicians, business.services, business.service_areas].map(createMatcher);
    const strings = (v: unknown): string[] =>
      typeof v === "string" ? [v] : v && typeof v === "object" ? Object.values(v).flatMap(strings) : [];
    const { SERVICE_PHRASES, ...words } = vocabulary;
    const generic = [ASPECT_PHRASES, story, words].flatMap(strings).map((s) => s.replace(/\{\w+\}/g, "x"));
    expect(generic.length).toBeGreaterThan(300);
    for (const s of generic) for (const m of matchers) expect(m.detect(s), s).toEqual([]);
    const services = createMatcher(business.services);
    for (const [id, phrases] of Object.entries(SERVICE_PHRASES)) {
      for (const p of phrases) expect(services.detect(p), p).toEqual([id]);
    }
  });
});
