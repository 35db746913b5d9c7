import { cp, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SiteBuilds } from "../../sidecar/build/site-build.ts";
import { astroCacheDir, runAstroBuild } from "../../src/build/astro-build.ts";
import { AstroBuildWorker } from "../../src/build/astro-worker.ts";
import { GENERATING_MARKER } from "../../src/integrations/incremental-guard.ts";
import { readDistFiles } from "../../src/io/dist-files.ts";
import { buildSite, freshLogEnv, HEADER_FILES, tempDistDir, undatedHeaders } from "../helpers/build-site.ts";

/**
 * Astro's incremental build as `npm run build` meets it: one DIST_DIR rebuilt in place after each
 * change, its Astro cache kept, every month page whose key is unchanged copied from the last build
 * (src/site/month-page-props.ts). After every change the output must be, file for file and byte for
 * byte, what a cold build of the same content writes; the build log says which months were rendered,
 * so the test also shows the copies are really used.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const ENV = { BASE_URL: "https://reviews.example", HUB_URL: "off" };
const MONTH = /\/reviews\/\d{4}\/\d{2}\/index\.html/;
const REVIEW = /\/reviews\/[a-z0-9]+(?:-[a-z0-9]+)+\/index\.html/;
const EVIDENCE = /\/insights\/[a-z0-9/-]+\/index\.html/;
/** Reviews in the fixture. */
const REVIEWS = 8;
let content: string;
let dist: string;
const temp: string[] = [];

beforeAll(async () => {
  content = await mkdtemp(path.join(os.tmpdir(), "pr-incremental-"));
  temp.push(content);
  await cp(FIXTURE, content, { recursive: true });
  dist = await tempDistDir("pr-incremental-dist-");
  temp.push(dist);
});

afterAll(async () => {
  await Promise.all([...temp, astroCacheDir(dist)].map((d) => rm(d, { recursive: true, force: true })));
});

interface Rebuild {
  code: number;
  /** Month pages rendered, and kept (left in place or copied, from the last build). */
  rendered: string[];
  kept: string[];
  /** The same for the review pages and the evidence pages. */
  reviews: Pages;
  evidence: Pages;
}

type Pages = { rendered: string[]; kept: string[] };

/**
 * The modification time of each page's copy in Astro's cache: a rendered page rewrites its copy, a
 * kept one leaves it as it was. (Astro's log cannot tell: with `build.concurrency` its lines for
 * pages rendered at once run into each other.)
 */
async function cacheCopies(): Promise<Map<string, number>> {
  const root = path.join(astroCacheDir(dist), "dist");
  const names = (await readdir(root, { recursive: true }).catch(() => [] as string[])).filter((n) =>
    n.endsWith(".html"),
  );
  return new Map(
    await Promise.all(names.map(async (n) => [`/${n}`, (await stat(path.join(root, n))).mtimeMs] as const)),
  );
}

/** The incremental build of `content` into `dist`; says which pages it rendered and which it kept. */
async function rebuild(): Promise<Rebuild> {
  const before = await cacheCopies();
  const result = await runAstroBuild({
    distDir: dist,
    contentDir: content,
    // A new review log each time, as `buildSite`'s cold builds have: they are compared byte for byte.
    env: { ...process.env, ...ENV, ...(await freshLogEnv(ENV.BASE_URL)) },
    output: "capture",
    lock: true,
  });
  const after = await cacheCopies();
  const pagesOf = (kind: RegExp): Pages => {
    const all = [...after.keys()].filter((p) => kind.test(p)).sort();
    return {
      rendered: all.filter((p) => before.get(p) !== after.get(p)),
      kept: all.filter((p) => before.get(p) === after.get(p)),
    };
  };
  return { code: result.code, ...pagesOf(MONTH), reviews: pagesOf(REVIEW), evidence: pagesOf(EVIDENCE) };
}

async function files(dir: string): Promise<Map<string, Buffer>> {
  return new Map((await readDistFiles(dir)).map((f) => [f.path, Buffer.from(f.bytes)]));
}

/**
 * Every file of `dist` equals, byte for byte, the same file of a cold build of the same content;
 * the header files too, but for Last-Modified, which a rebuild carries over and a cold build dates
 * by its own time.
 */
async function expectSameAsCold(built = dist): Promise<void> {
  const cold = await buildSite(content, ENV);
  temp.push(cold.distDir);
  expect(cold.code, cold.stderr).toBe(0);
  const want = await files(cold.distDir);
  const got = await files(built);
  expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
  for (const [p, bytes] of want) {
    if ((HEADER_FILES as readonly string[]).includes(p)) continue;
    expect(got.get(p)?.equals(bytes), p).toBe(true);
  }
  const manifest = (m: Map<string, Buffer>) => JSON.parse(m.get("/_headers.json")?.toString("utf8") ?? "null");
  expect(undatedHeaders(manifest(got))).toEqual(undatedHeaders(manifest(want)));
}

const review = (id: string) => path.join(content, "reviews", id.slice(0, 4), `${id}.yaml`);

async function replaceIn(file: string, from: string | RegExp, to: string): Promise<void> {
  const text = await readFile(file, "utf8");
  const next = text.replace(from, to);
  if (next === text) throw new Error(`${file}: nothing to replace`);
  await writeFile(file, next);
}

/** `npm run build` of the content into a real DIST_DIR outside the project; returns DIST_DIR. */
async function npmRunBuildOutside(prefix: string): Promise<string> {
  const outside = await mkdtemp(path.join(os.tmpdir(), prefix));
  temp.push(outside);
  const distDir = path.join(outside, "dist");
  const built = await runAstroBuild({
    distDir,
    contentDir: content,
    env: { ...process.env, ...ENV, ...(await freshLogEnv(ENV.BASE_URL)) },
    output: "capture",
    lock: true,
  });
  expect(built.code).toBe(0);
  return distDir;
}

/**
 * As npm start after a start that left no spare: adopts DIST_DIR, copies the build it serves into
 * a spare (`prepareSpare`) and builds one edit, which must take the copy's place (an unchanged month
 * page keeps its inode) and equal a cold build.
 */
async function firstBuildFromCopy(distDir: string, text: string): Promise<void> {
  const kept = "reviews/2025/01/index.html";
  const builds = new SiteBuilds(distDir);
  try {
    await builds.adopt();
    await builds.prepareSpare();
    const copy = (await readdir(builds.root)).find((n) => n.endsWith("-copy"));
    expect(copy).toBeDefined();
    const inode = (await stat(path.join(builds.root, copy as string, kept))).ino;
    await replaceIn(review("2025-03-10-carlos-d"), /^(text: \|\n {2})/m, `$1${text}. `);
    const env = { ...process.env, ...ENV, CONTENT_DIR: content, ...(await freshLogEnv(ENV.BASE_URL)) };
    const { dir, result } = await builds.build(env);
    expect(result.code).toBe(0);
    await builds.activate(dir as string);
    expect((await stat(path.join(dir as string, kept))).ino).toBe(inode);
    expect(await readFile(path.join(distDir, "reviews/2025/03/index.html"), "utf8")).toContain(text);
    await expectSameAsCold(distDir);
  } finally {
    await builds.close();
    await rm(astroCacheDir(distDir), { recursive: true, force: true });
  }
}

describe("incremental build", { timeout: 2_250_000 }, () => {
  it("a first build renders every month", async () => {
    const first = await rebuild();
    expect(first.code).toBe(0);
    expect(first.rendered).toHaveLength(7);
    expect(first.kept).toEqual([]);
    expect(first.reviews.rendered).toHaveLength(REVIEWS);
    expect(first.evidence.rendered.length).toBeGreaterThan(0);
    expect(first.evidence.kept).toEqual([]);
  });

  it("editing one review's text renders its month and its own page only, and the output is a cold build's", async () => {
    await replaceIn(review("2025-03-10-carlos-d"), "Sprained my ankle", "Twisted my ankle");
    const b = await rebuild();
    expect(b.code).toBe(0);
    expect(b.rendered).toEqual(["/reviews/2025/03/index.html"]);
    expect(b.kept).toHaveLength(6);
    // Its own page; no evidence list shows the text, so every evidence page is kept.
    expect(b.reviews.rendered).toEqual(["/reviews/2025-03-10-carlos-d/index.html"]);
    expect(b.reviews.kept).toHaveLength(REVIEWS - 1);
    expect(b.evidence.rendered).toEqual([]);
    await expectSameAsCold();
  });

  it("a month losing its last review disappears and every other month shows the new navigation", async () => {
    await rm(review("2024-02-29-dana-k"));
    const b = await rebuild();
    expect(b.code).toBe(0);
    expect(b.rendered).toHaveLength(6);
    expect(b.kept).toEqual([]);
    await expectSameAsCold();
    expect((await files(dist)).has("/reviews/2024/02/index.html")).toBe(false);
  });

  it("a review in a new month adds its page and renders every month", async () => {
    const text = await readFile(review("2024-05-17-greg-h"), "utf8");
    await writeFile(
      review("2024-07-17-ana-p"),
      text.replaceAll("2024-05-", "2024-07-").replace(/^author: .*$/m, "author: Ana P."),
    );
    const b = await rebuild();
    expect(b.code).toBe(0);
    expect(b.rendered).toContain("/reviews/2024/07/index.html");
    expect(b.rendered).toHaveLength(7);
    await expectSameAsCold();
  });

  it("site-wide data (the business, a rating) renders every month", async () => {
    await replaceIn(path.join(content, "business.yaml"), /^name: .*$/m, "name: Willow Creek Chiropractic");
    const named = await rebuild();
    expect(named.code).toBe(0);
    expect(named.rendered).toHaveLength(7);
    await replaceIn(review("2024-11-21-mike"), /^rating: \d$/m, "rating: 2");
    const rated = await rebuild();
    expect(rated.code).toBe(0);
    expect(rated.rendered).toHaveLength(7);
    // A review's page shows no aggregate rating: only the re-rated review's own page is rendered.
    expect(rated.reviews.rendered).toEqual(["/reviews/2024-11-21-mike/index.html"]);
    await expectSameAsCold();
  });

  it("copies a kept page from the cache, unless the last build stopped while generating pages", async () => {
    const copy = path.join(astroCacheDir(dist), "dist", "reviews", "2025", "01", "index.html");
    const genuine = await readFile(copy);
    // What a build that failed after rendering this page again would leave: another copy, old keys.
    await writeFile(copy, "rendered from other data");
    // Not in DIST_DIR, so Astro copies it from the cache.
    await rm(path.join(dist, "reviews/2025/01/index.html"));
    const trusted = await rebuild();
    expect(trusted.kept).toContain("/reviews/2025/01/index.html");
    expect(await readFile(path.join(dist, "reviews/2025/01/index.html"), "utf8")).toBe("rendered from other data");

    await writeFile(copy, "rendered from other data");
    await writeFile(path.join(astroCacheDir(dist), GENERATING_MARKER), "");
    const guarded = await rebuild();
    expect(guarded.code).toBe(0);
    expect(guarded.kept).toEqual([]);
    expect(await readFile(copy)).toEqual(genuine);
    expect(await readdir(astroCacheDir(dist))).not.toContain(GENERATING_MARKER);
    await expectSameAsCold();
  });

  it("a build that fails leaves DIST_DIR as it was, and the next one is a cold build's", async () => {
    const before = await files(dist);
    await replaceIn(review("2025-01-14-heather-w"), /^rating: \d$/m, "rating: 9");
    const failed = await rebuild();
    expect(failed.code).not.toBe(0);
    expect(await files(dist)).toEqual(before);
    await replaceIn(review("2025-01-14-heather-w"), /^rating: 9$/m, "rating: 4");
    const fixed = await rebuild();
    expect(fixed.code).toBe(0);
    await expectSameAsCold();
  });

  it("a DIST_DIR changed since its last build is not trusted: emptied, its pages copied from the cache in bulk", async () => {
    const page = path.join(dist, "reviews/2025/01/index.html");
    await writeFile(page, "changed by hand");
    await writeFile(path.join(dist, "left-over.html"), "not from any build");
    // Any build that is not this cache's last one rewrites the header manifest.
    await writeFile(path.join(dist, "_headers.json"), "{}");
    const b = await rebuild();
    expect(b.code).toBe(0);
    expect(b.rendered).toEqual([]);
    expect(b.kept).toHaveLength(7);
    expect(await readFile(page, "utf8")).not.toBe("changed by hand");
    await expectSameAsCold();
  });

  it("npm start's build worker: each build in a fresh folder, one cache, equal to a cold build", async () => {
    // As SiteBuilds does: a new folder per build, the cache named by DIST_DIR, one process.
    const worker = new AstroBuildWorker({});
    const key = await tempDistDir("pr-incremental-key-");
    temp.push(key);
    // The worker's log goes straight to this process's stdout, so the copies in the cache tell what
    // was rendered: a rendered page rewrites its copy, a copied one leaves it as it was.
    const copy = (month: string) => path.join(astroCacheDir(key), "dist", "reviews", month, "index.html");
    try {
      const stamps: number[][] = [];
      let out = "";
      for (const text of ["First worker edit", "Second worker edit"]) {
        await replaceIn(review("2025-03-10-carlos-d"), /^(text: \|\n {2})/m, `$1${text}. `);
        out = await tempDistDir("pr-incremental-worker-");
        temp.push(out);
        const result = await runAstroBuild({
          distDir: out,
          contentDir: content,
          env: { ...process.env, ...ENV, ...(await freshLogEnv(ENV.BASE_URL)) },
          cacheKey: key,
          output: "inherit",
          lock: true,
          worker,
        });
        expect(result.code).toBe(0);
        stamps.push(await Promise.all(["2025/01", "2025/03"].map(async (m) => (await stat(copy(m))).mtimeMs)));
      }
      const [[kept0, edited0], [kept1, edited1]] = stamps as [[number, number], [number, number]];
      expect(kept1).toBe(kept0);
      expect(edited1).toBeGreaterThan(edited0);
      await expectSameAsCold(out);
    } finally {
      await worker.close();
      await rm(astroCacheDir(key), { recursive: true, force: true });
    }
  });

  it("npm run build, npm start's quiet build worker, npm run build again: one cache, each keeping the pages no edit touches", async () => {
    // npm start captures its builds' output; Astro's log level is still the one npm run build uses,
    // because Astro bakes it into the pages' code (src/build/astro-worker.ts). At another level,
    // every page was rendered again.
    const distDir = await tempDistDir("pr-incremental-levels-");
    temp.push(distDir);
    const copy = (month: string) => path.join(astroCacheDir(distDir), "dist", "reviews", month, "index.html");
    const stampsOf = () => Promise.all(["2025/01", "2025/03"].map(async (m) => (await stat(copy(m))).mtimeMs));
    const worker = new AstroBuildWorker({ output: "capture" });
    try {
      const stamps: number[][] = [];
      for (const [i, text] of ["CLI build", "Worker build", "CLI build again"].entries()) {
        await replaceIn(review("2025-03-10-carlos-d"), /^(text: \|\n {2})/m, `$1${text}. `);
        const viaWorker = i === 1;
        const out = viaWorker ? await tempDistDir("pr-incremental-levels-worker-") : distDir;
        if (viaWorker) temp.push(out);
        const result = await runAstroBuild({
          distDir: out,
          contentDir: content,
          env: { ...process.env, ...ENV, ...(await freshLogEnv(ENV.BASE_URL)) },
          cacheKey: distDir,
          output: "capture",
          lock: true,
          ...(viaWorker ? { worker } : {}),
        });
        expect(result.code, result.stdout + result.stderr).toBe(0);
        stamps.push(await stampsOf());
      }
      const [[kept0, edited0], [kept1, edited1], [kept2, edited2]] = stamps as [
        [number, number],
        [number, number],
        [number, number],
      ];
      expect([kept1, kept2]).toEqual([kept0, kept0]);
      expect(edited1).toBeGreaterThan(edited0);
      expect(edited2).toBeGreaterThan(edited1);
      await expectSameAsCold(distDir);
    } finally {
      await worker.close();
      await rm(astroCacheDir(distDir), { recursive: true, force: true });
    }
    // So a silent build is only one whose cache is dropped afterwards.
    await expect(runAstroBuild({ distDir, contentDir: content, silent: true })).rejects.toThrow(/silent/);
  });

  it("npm start adopting a folder edited by hand after npm run build: a build that starts from it does not keep the edit", async () => {
    // `npm run build` into a real DIST_DIR, then a page of a review no edit touches changed by hand.
    const distDir = await npmRunBuildOutside("pr-incremental-adopted-");
    const page = "reviews/2024-05-17-greg-h/index.html";
    await writeFile(
      path.join(distDir, page),
      (await readFile(path.join(distDir, page), "utf8")).replace("</h1>", "</h1>HAND"),
    );
    const worker = new AstroBuildWorker({});
    const builds = new SiteBuilds(distDir, { worker });
    const env = { ...process.env, ...ENV, CONTENT_DIR: content };
    try {
      await builds.adopt();
      // As npm start does after its start: no copy of an adopted folder edited by hand.
      await builds.prepareSpare();
      expect(await readdir(builds.root)).toHaveLength(1);
      const pruned: string[][] = [];
      for (const text of ["First adopted edit", "Second adopted edit"]) {
        await replaceIn(review("2025-03-10-carlos-d"), /^(text: \|\n {2})/m, `$1${text}. `);
        const { dir, result } = await builds.build({ ...env, ...(await freshLogEnv(ENV.BASE_URL)) });
        expect(result.code).toBe(0);
        expect(await readFile(path.join(dir as string, page), "utf8")).not.toContain("HAND");
        await builds.activate(dir as string);
        // The adopted folder is let go after the first build and kept as the spare: the second starts from it.
        pruned.push(await builds.prune(new Set([await realpath(dir as string)])));
      }
      expect(pruned[0]).toEqual([]);
      expect((await readdir(builds.root)).some((n) => n.endsWith("-adopted"))).toBe(false);
      expect(await readFile(path.join(distDir, page), "utf8")).not.toContain("HAND");
      await expectSameAsCold(distDir);
    } finally {
      await builds.close();
      await rm(astroCacheDir(distDir), { recursive: true, force: true });
    }
  });

  it("npm start over a folder npm run build made, untouched: the first build starts from a copy of it, equal to a cold build", async () => {
    await firstBuildFromCopy(await npmRunBuildOutside("pr-incremental-untouched-"), "After npm run build");
  });

  it("npm start started again over its own build: the first build starts from a copy of it, equal to a cold build", async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), "pr-incremental-restart-"));
    const distDir = path.join(outside, "dist");
    temp.push(outside);
    const first = new SiteBuilds(distDir);
    try {
      await first.adopt();
      await replaceIn(review("2025-03-10-carlos-d"), /^(text: \|\n {2})/m, "$1Before the restart. ");
      const built = await first.build({
        ...process.env,
        ...ENV,
        CONTENT_DIR: content,
        ...(await freshLogEnv(ENV.BASE_URL)),
      });
      expect(built.result.code).toBe(0);
      await first.activate(built.dir as string);
    } finally {
      await first.close();
    }
    await firstBuildFromCopy(distDir, "After the restart");
  });

  it("npm start's builds with DIST_DIR and CONTENT_DIR outside the project: one worker, a retired folder reused, each equal to a cold build", async () => {
    // Astro prerenders every such build from one fixed folder in the project. Without the worker's
    // per-build module URLs (astro-worker-main.ts) the second build imported the first one's
    // modules, so every month page was copied from the cache with the content of the first build.
    const outside = await mkdtemp(path.join(os.tmpdir(), "pr-incremental-outside-"));
    const distDir = path.join(outside, "dist");
    temp.push(outside);
    const worker = new AstroBuildWorker({});
    const builds = new SiteBuilds(distDir, { worker });
    const env = { ...process.env, ...ENV, CONTENT_DIR: content };
    const pids: (number | undefined)[] = [];
    const kept = "reviews/2025/01/index.html";
    const inodes: number[] = [];
    try {
      for (const text of ["First outside edit", "Second outside edit", "Third outside edit"]) {
        await replaceIn(review("2025-03-10-carlos-d"), /^(text: \|\n {2})/m, `$1${text}. `);
        // A new review log each time, as the cold build it is compared with starts one.
        const { dir, result } = await builds.build({ ...env, ...(await freshLogEnv(ENV.BASE_URL)) });
        expect(result.code).toBe(0);
        await builds.activate(dir as string);
        pids.push(worker.lastBuildPid);
        inodes.push((await stat(path.join(dir as string, kept))).ino);
        expect(await readFile(path.join(distDir, "reviews/2025/03/index.html"), "utf8")).toContain(text);
        await expectSameAsCold(distDir);
        // As npm start does once the old build is no longer read: it is kept as the next one's start.
        const removed = await builds.prune(new Set([await realpath(dir as string)]));
        expect(removed).toEqual([]);
      }
      // Every build ran in the same warm process, not in a fresh `astro build` each.
      expect(pids[0]).toBeDefined();
      expect(new Set(pids).size).toBe(1);
      // The third build started from the first one's folder: an unchanged month page stayed where it was.
      expect(inodes[2]).toBe(inodes[0]);
      expect(inodes[1]).not.toBe(inodes[0]);
      expect(await readdir(builds.root)).toHaveLength(2);
    } finally {
      await builds.close();
      await rm(astroCacheDir(distDir), { recursive: true, force: true });
    }
  });
});
