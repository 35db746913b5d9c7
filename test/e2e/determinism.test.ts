import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEED_SIZE } from "../../src/feeds/entries.ts";
import type { HeadersManifest } from "../../src/http-headers/manifest.ts";
import { readDistFiles } from "../../src/io/dist-files.ts";
import { buildSite, HEADER_FILES, tempDistDir, undatedHeaders } from "../helpers/build-site.ts";

/**
 * The fixture plus FEED_SIZE filler reviews dated March-April 2024. That pushes the fixture's oldest
 * review (2024-02-29-dana-k, alone on the February 2024 page) out of both feeds, while the newest
 * (2025-03-10-carlos-d) stays at the top of them, so "which files change" has a crisp answer.
 */
const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const BASE = "https://reviews.example";
const OLD = { id: "2024-02-29-dana-k", year: "2024", text: "The front desk found me a slot the same morning." };
const NEW = { id: "2025-03-10-carlos-d", year: "2025", text: "Quick to reply to messages" };

const temp: string[] = [];
afterAll(() => Promise.all(temp.map((d) => rm(d, { recursive: true, force: true }))));

interface Build {
  dist: string;
  files: Map<string, Buffer>;
  manifest: HeadersManifest;
}

async function contentDir(edit?: (dir: string) => Promise<void>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "pr-determinism-"));
  temp.push(dir);
  await cp(FIXTURE, dir, { recursive: true });
  for (let i = 0; i < FEED_SIZE; i++) {
    const date = new Date(Date.UTC(2024, 2, 1 + i)).toISOString().slice(0, 10);
    const yaml = [
      `date: ${date}`,
      `published_at: "${date}T12:${String(i).padStart(2, "0")}:00Z"`,
      `rating: ${(i % 5) + 1}`,
      `author: Patient ${i}`,
      "text: |",
      `  Visit ${i}: easy booking, friendly front desk, and I left feeling better than I came in.`,
      "source:",
      "  platform: direct",
      "verification:",
      "  method: invoice",
      `  verified_on: ${date}`,
      "",
    ].join("\n");
    await writeFile(path.join(dir, "reviews/2024", `${date}-patient-${i}.yaml`), yaml);
  }
  await edit?.(dir);
  return dir;
}

async function replaceIn(dir: string, review: { id: string; year: string }, from: string, to: string): Promise<void> {
  const file = path.join(dir, "reviews", review.year, `${review.id}.yaml`);
  const text = await readFile(file, "utf8");
  if (!text.includes(from)) throw new Error(`${file} does not contain ${from}`);
  await writeFile(file, text.replace(from, to));
}

async function build(dir: string): Promise<Build> {
  // A folder of its own: a build into it is always cold, never the run's shared one (see buildSite).
  const result = await buildSite(dir, { BASE_URL: BASE }, await tempDistDir());
  temp.push(result.distDir);
  if (result.code !== 0) throw new Error(`build of ${dir} failed:\n${result.stdout}\n${result.stderr}`);
  const files = new Map((await readDistFiles(result.distDir)).map((f) => [f.path, Buffer.from(f.bytes)]));
  const manifest = JSON.parse(files.get("/_headers.json")?.toString("utf8") ?? "null") as HeadersManifest;
  return { dist: result.distDir, files, manifest };
}

/** Paths whose ETag differs between two builds, including files only one of them has. */
function changedEtags(a: Build, b: Build): string[] {
  const paths = new Set([...Object.keys(a.manifest.files), ...Object.keys(b.manifest.files)]);
  return [...paths].filter((p) => a.manifest.files[p]?.etag !== b.manifest.files[p]?.etag).sort();
}

/**
 * The review log's files that hash what its entries hold: the checkpoint, the hash tiles and the
 * /log/ page that shows the checkpoint. The entry bundle itself contains the review's id.
 */
function logHeads(b: Build): string[] {
  return Object.keys(b.manifest.files).filter(
    (p) => p === "/log/checkpoint" || p === "/log/index.html" || /^\/log\/tile\/\d+\//.test(p),
  );
}

/** Served files (not the header files themselves) whose bytes contain `needle`. */
function containing(b: Build, needle: string): string[] {
  return Object.keys(b.manifest.files)
    .filter((p) => b.files.get(p)?.includes(needle))
    .sort();
}

const monthPage = (year: string, month: string) => `/reviews/${year}/${month}/index.html`;
const monthPages = (b: Build) => Object.keys(b.manifest.files).filter((p) => /^\/reviews\/\d{4}\/\d{2}\//.test(p));

let base: Build;
let again: Build;
let oldEdited: Build;
let newEdited: Build;
// Four builds, each queued behind every other test's build on the machine-wide build lock.
beforeAll(async () => {
  base = await build(await contentDir());
  again = await build(await contentDir());
  // An old review gets a corrected text and, weeks later, an owner reply.
  oldEdited = await build(
    await contentDir(async (dir) => {
      await replaceIn(dir, OLD, OLD.text, "The front desk found me a slot that afternoon.");
      await replaceIn(
        dir,
        OLD,
        "verification:",
        'response:\n  date: 2025-03-20\n  text: "Thank you, Dana."\nverification:',
      );
    }),
  );
  newEdited = await build(await contentDir((dir) => replaceIn(dir, NEW, NEW.text, "Quick to answer messages")));
}, 1_500_000);

describe("two builds of the same content", () => {
  it("write the same files with identical bytes, and the same headers but for Last-Modified", () => {
    expect([...again.files.keys()]).toEqual([...base.files.keys()]);
    for (const [p, bytes] of base.files) {
      // Two first builds: each dates its files by its own time (src/http-headers/last-modified.ts).
      if ((HEADER_FILES as readonly string[]).includes(p)) continue;
      expect(again.files.get(p)?.equals(bytes), p).toBe(true);
    }
    expect(undatedHeaders(again.manifest)).toEqual(undatedHeaders(base.manifest));
    expect(base.files.has("/_headers.json") && base.files.has("/_headers")).toBe(true);
  });
});

describe("changing one review", () => {
  it("that is too old for the feeds changes the ETags of the files that contain it and nothing else", () => {
    const changed = changedEtags(base, oldEdited);
    const mustChange = containing(base, OLD.text);
    const mayChange = new Set([
      ...containing(base, OLD.id),
      ...containing(oldEdited, OLD.id),
      "/insights.json",
      ...logHeads(base),
    ]);

    expect(mustChange).toContain("/reviews.json");
    expect(changed).toEqual(expect.arrayContaining(mustChange));
    for (const p of changed) expect(mayChange.has(p), `${p} changed but does not contain ${OLD.id}`).toBe(true);

    expect(changed).not.toContain("/feed.xml");
    expect(changed).not.toContain("/api/feed.json");
    expect(changed).not.toContain("/openapi.json");
    const ownPage = monthPage("2024", "02");
    if (base.files.has(ownPage)) expect(changed).toContain(ownPage);
    for (const p of monthPages(base).filter((p) => p !== ownPage)) expect(changed).not.toContain(p);
  });

  it("that is the newest changes the feeds too, and still nothing that does not contain it", () => {
    const changed = changedEtags(base, newEdited);
    const mayChange = new Set([
      ...containing(base, NEW.id),
      ...containing(newEdited, NEW.id),
      "/insights.json",
      ...logHeads(base),
    ]);

    expect(changed).toEqual(expect.arrayContaining(["/api/feed.json", "/feed.xml", "/reviews.json"]));
    expect(changed).toEqual(expect.arrayContaining(containing(base, NEW.text)));
    for (const p of changed) expect(mayChange.has(p), `${p} changed but does not contain ${NEW.id}`).toBe(true);

    // The OpenAPI examples are fixed (src/api/openapi-examples.ts): no review moves the document.
    expect(changed).not.toContain("/openapi.json");
    const ownPage = monthPage("2025", "03");
    for (const p of monthPages(base).filter((p) => p !== ownPage)) expect(changed).not.toContain(p);
  });
});
