import { mkdir, readdir, readFile, realpath, rm, symlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SiteBuilds } from "../../../sidecar/build/site-build.ts";
import { astroCacheDir } from "../../../src/build/astro-build.ts";
import type { AstroBuildWorker } from "../../../src/build/astro-worker.ts";
import { recordLastBuild } from "../../../src/integrations/out-dir.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

const temp = tempFolders();

/** A fresh DIST_DIR in a temp folder, and its Astro cache: both removed after the file. */
async function tempDist(): Promise<{ distDir: string; cache: string }> {
  const distDir = path.join(await temp.make("pr-site-builds-"), "dist");
  const cache = astroCacheDir(distDir);
  temp.add(cache);
  return { distDir, cache };
}

/** A build folder under `root`: complete when it has a header manifest. */
async function folder(root: string, name: string, complete = true): Promise<string> {
  const dir = path.join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "index.html"), name);
  if (complete) await writeFile(path.join(dir, "_headers.json"), '{"version":1,"files":{}}');
  return realpath(dir);
}

/**
 * A worker whose build runs until the test ends it (`started` resolves with the function that
 * ends it): the folders and the timing are SiteBuilds'.
 */
function heldWorker(): { worker: AstroBuildWorker; started: Promise<(code: number) => void> } {
  let begin: (finish: (code: number) => void) => void = () => {};
  const started = new Promise<(code: number) => void>((resolve) => (begin = resolve));
  const worker = {
    warmed: true,
    warm() {},
    run: () => new Promise<{ code: number; notices: [] }>((resolve) => begin((code) => resolve({ code, notices: [] }))),
  } as unknown as AstroBuildWorker;
  return { worker, started };
}

describe("SiteBuilds.prune", () => {
  it("keeps what is read, the last build and the newest other complete build (the spare); deletes the rest", async () => {
    const { distDir, cache } = await tempDist();
    const builds = new SiteBuilds(distDir);
    const root = builds.root;
    const old = await folder(root, "20260101T000000000Z-1-1-build");
    const spare = await folder(root, "20260101T000001000Z-1-2-build");
    const read = await folder(root, "20260101T000002000Z-1-3-build");
    const last = await folder(root, "20260101T000003000Z-1-4-build");
    const warmUp = await folder(root, "20260101T000004000Z-1-5-warm-up");
    const incomplete = await folder(root, "20260101T000005000Z-1-6-build", false);
    await mkdir(cache, { recursive: true });
    recordLastBuild(cache, last);

    const removed = await builds.prune(new Set([read]));

    expect(removed.sort()).toEqual([old, warmUp, incomplete].sort());
    expect((await readdir(root)).map((n) => path.join(path.dirname(old), n)).sort()).toEqual(
      [spare, read, last].sort(),
    );
    // Once the build that was read is let go, it is the newest idle one: it becomes the spare.
    expect(await builds.prune(new Set())).toEqual([spare]);
    expect(await builds.prune(new Set())).toEqual([]);
  });

  it("keeps the newest complete folder as the spare when no last build is recorded", async () => {
    const { distDir } = await tempDist();
    const builds = new SiteBuilds(distDir);
    const a = await folder(builds.root, "20260101T000000000Z-1-1-build");
    const b = await folder(builds.root, "20260101T000001000Z-1-2-build");
    // The record decides only which folder is the last build; a later build records one.
    expect(await builds.prune(new Set())).toEqual([a]);
    expect(await readdir(builds.root)).toEqual([path.basename(b)]);
  });
});

describe("SiteBuilds.prune during a build", () => {
  it("removes nothing while a build runs, and the idle folders once it has ended", async () => {
    const { distDir, cache } = await tempDist();
    const { worker, started } = heldWorker();
    const builds = new SiteBuilds(distDir, { worker });
    const old = await folder(builds.root, "20260101T000000000Z-1-1-build");
    await mkdir(path.join(old, "reviews", "a"), { recursive: true });
    await writeFile(path.join(old, "reviews", "a", "index.html"), "a");
    const spare = await folder(builds.root, "20260101T000001000Z-1-2-build");
    const last = await folder(builds.root, "20260101T000002000Z-1-3-build");
    await mkdir(cache, { recursive: true });
    recordLastBuild(cache, last);
    // A link inside a folder being removed is removed, not followed.
    const outside = await folder(path.dirname(distDir), "outside");
    await symlink(outside, path.join(old, "reviews", "link"));

    const building = builds.build({ ...process.env, BASE_URL: "http://localhost:4321" });
    // The build takes the project's build lock first, which another test's build may hold a while.
    const finish = await started;
    let pruned: string[] | undefined;
    const pruning = builds.prune(new Set()).then((removed) => {
      pruned = removed;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(pruned).toBeUndefined();
    expect(await readFile(path.join(old, "reviews", "a", "index.html"), "utf8")).toBe("a");

    finish(1); // the build fails: its folder goes, and the removal goes on
    await building;
    await pruning;
    expect(pruned).toEqual([old]);
    expect((await readdir(builds.root)).sort()).toEqual([path.basename(spare), path.basename(last)]);
    expect(await readFile(path.join(outside, "index.html"), "utf8")).toBe("outside");
    // With no build running, a prune removes at once.
    await folder(builds.root, "20260101T000000500Z-1-4-build");
    expect(await builds.prune(new Set())).toHaveLength(1);
  });
});

describe("SiteBuilds.prepareSpare", () => {
  it("without a spare, copies npm start's last build into one; with one, does nothing", async () => {
    const { distDir, cache } = await tempDist();
    const builds = new SiteBuilds(distDir);
    const last = await folder(builds.root, "20260101T000000000Z-1-1-build");
    await mkdir(cache, { recursive: true });
    recordLastBuild(cache, last);

    await builds.prepareSpare();
    const names = (await readdir(builds.root)).sort();
    expect(names).toHaveLength(2);
    const copy = path.join(builds.root, names.find((n) => n !== path.basename(last)) as string);
    expect(copy.endsWith("-copy")).toBe(true);
    expect(await readFile(path.join(copy, "index.html"), "utf8")).toBe(path.basename(last));
    expect(await readFile(path.join(copy, "_headers.json"), "utf8")).toBe('{"version":1,"files":{}}');
    // It is the spare now: pruning keeps it, and a second call copies nothing.
    expect(await builds.prune(new Set())).toEqual([]);
    await builds.prepareSpare();
    expect(await readdir(builds.root)).toHaveLength(2);
  });

  it("copies nothing without a recorded last build, nor an adopted folder with a file newer than its manifest", async () => {
    const { distDir, cache } = await tempDist();
    const builds = new SiteBuilds(distDir);
    const adopted = await folder(builds.root, "20260101T000000000Z-1-1-adopted", false);
    const manifest = path.join(adopted, "_headers.json");
    // Made after the page, as a build makes it: a clock tick later.
    const writeManifest = async () => {
      await new Promise((r) => setTimeout(r, 20));
      await rm(manifest, { force: true });
      await writeFile(
        manifest,
        '{"version":1,"files":{"/index.html":{"etag":"\\"x\\"","content_type":"text/html","cache_control":"no-cache"}}}',
      );
      recordLastBuild(cache, adopted);
    };
    await mkdir(cache, { recursive: true });
    await writeManifest();
    await rm(path.join(cache, "out-dir.json"));
    await builds.prepareSpare();
    expect(await readdir(builds.root)).toHaveLength(1);
    recordLastBuild(cache, adopted);
    // Edited by hand after it was built, its modification time then set back (touch -r, cp -p).
    await writeFile(path.join(adopted, "index.html"), "edited");
    const earlier = new Date(Date.now() - 60_000);
    await utimes(path.join(adopted, "index.html"), earlier, earlier);
    await builds.prepareSpare();
    expect(await readdir(builds.root)).toHaveLength(1);
    // As built: copied.
    await writeManifest();
    await builds.prepareSpare();
    expect((await readdir(builds.root)).some((n) => n.endsWith("-copy"))).toBe(true);
  });

  it("stops a copy still being made when a build starts, leaving the partial folder to a prune", async () => {
    const { distDir, cache } = await tempDist();
    const { worker, started } = heldWorker();
    const builds = new SiteBuilds(distDir, { worker });
    const last = await folder(builds.root, "20260101T000000000Z-1-1-build");
    for (let i = 0; i < 400; i++) {
      await mkdir(path.join(last, "reviews", `r${i}`), { recursive: true });
      await writeFile(path.join(last, "reviews", `r${i}`, "index.html"), `review ${i}`);
    }
    await mkdir(cache, { recursive: true });
    recordLastBuild(cache, last);

    const copying = builds.prepareSpare();
    // Once the copy has begun: a build started now finds no spare and stops it.
    while (!(await readdir(builds.root)).some((n) => n.endsWith("-copy"))) await new Promise((r) => setImmediate(r));
    const building = builds.build({ ...process.env, BASE_URL: "http://localhost:4321" });
    await copying;
    const copy = (await readdir(builds.root)).find((n) => n.endsWith("-copy")) as string;
    // Stopped before its end: fewer pages than the site, no manifest, so never taken for a build.
    const copied = await readdir(path.join(builds.root, copy, "reviews")).catch(() => []);
    expect(copied.length).toBeLessThan(400);
    expect(await readdir(path.join(builds.root, copy))).not.toContain("_headers.json");
    (await started)(1);
    await building;
    const partial = await realpath(path.join(builds.root, copy));
    expect(await builds.prune(new Set())).toContain(partial);
  });
});
