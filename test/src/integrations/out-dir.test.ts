import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  emptyAside,
  emptyInPlace,
  holdsLastBuild,
  markStart,
  pruneUnwritten,
  recordLastBuild,
  seeFiles,
  seeFilesAside,
} from "../../../src/integrations/out-dir.ts";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "out-dir-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** An output folder like a build's: pages in folders of their own, and a file at the top. */
function earlierBuild(dir: string): void {
  for (const id of ["a", "b", "c"]) {
    mkdirSync(path.join(dir, "reviews", id), { recursive: true });
    writeFileSync(path.join(dir, "reviews", id, "index.html"), `<p>${id}</p>`);
  }
  writeFileSync(path.join(dir, "reviews.json"), "{}");
}

describe("emptyAside", () => {
  it("leaves an empty folder with the old one's mode, and the old tree gone once it resolves", async () => {
    const dir = path.join(root, "dist");
    earlierBuild(dir);
    const mode = 0o750;
    spawnSync("chmod", [mode.toString(8), dir]);
    const removal = emptyAside(dir);
    expect(removal).toBeInstanceOf(Promise);
    expect(readdirSync(dir)).toEqual([]);
    expect(statSync(dir).mode & 0o7777).toBe(mode);
    await removal;
    expect(readdirSync(root)).toEqual(["dist"]);
  });

  it("removes what a build that ended early set aside, but not what a running one did", async () => {
    const dir = path.join(root, "dist");
    earlierBuild(dir);
    // A pid no process has (above the kernel's limit) and this test runner's parent, which runs.
    const dead = path.join(root, ".dist.emptying-4194399");
    const alive = path.join(root, `.dist.emptying-${process.ppid}`);
    earlierBuild(dead);
    earlierBuild(alive);
    await emptyAside(dir);
    expect(readdirSync(root).sort()).toEqual([`.dist.emptying-${process.ppid}`, "dist"]);
  });

  it("does not set aside a folder that is missing, empty, a symbolic link or holds .git", () => {
    expect(emptyAside(path.join(root, "missing"))).toBeUndefined();

    const empty = path.join(root, "empty");
    mkdirSync(empty);
    expect(emptyAside(empty)).toBeUndefined();

    const target = path.join(root, "target");
    earlierBuild(target);
    const link = path.join(root, "link");
    symlinkSync(target, link);
    expect(emptyAside(link)).toBeUndefined();
    expect(readdirSync(link)).toContain("reviews.json");

    const git = path.join(root, "git");
    earlierBuild(git);
    mkdirSync(path.join(git, ".git"));
    expect(emptyAside(git)).toBeUndefined();
    expect(readdirSync(git)).toContain("reviews.json");
  });
});

describe("emptyInPlace", () => {
  it("removes everything but .git", () => {
    const dir = path.join(root, "dist");
    earlierBuild(dir);
    mkdirSync(path.join(dir, ".git"));
    emptyInPlace(dir);
    expect(readdirSync(dir)).toEqual([".git"]);
  });
});

describe("pruneUnwritten", () => {
  it("removes the files not written since and not kept, then the folders they leave empty", () => {
    const dir = path.join(root, "dist");
    earlierBuild(dir);
    mkdirSync(path.join(dir, ".git"));
    writeFileSync(path.join(dir, ".git", "HEAD"), "ref");
    // Dated in the past, so writing a file again surely changes its modification time.
    const a = path.join(dir, "reviews", "a", "index.html");
    utimesSync(a, new Date(0), new Date(0));
    const before = seeFiles(dir);
    expect([...before.keys()].map((f) => path.relative(dir, f)).sort()).toEqual([
      "reviews.json",
      "reviews/a/index.html",
      "reviews/b/index.html",
      "reviews/c/index.html",
    ]);
    // The build writes a's page again, keeps b's as a route's output and writes a new file; c's
    // page and reviews.json are left over from the earlier build.
    writeFileSync(a, "<p>a, again</p>");
    writeFileSync(path.join(dir, "new.html"), "new");
    expect(pruneUnwritten(dir, before, new Set([path.join(dir, "reviews", "b", "index.html")]))).toBe(2);
    expect(readdirSync(dir).sort()).toEqual([".git", "new.html", "reviews"]);
    expect(readdirSync(path.join(dir, "reviews")).sort()).toEqual(["a", "b"]);
    expect(readFileSync(a, "utf8")).toBe("<p>a, again</p>");
  });
});

describe("seeFilesAside and the start mark", () => {
  it("lists on a worker thread what seeFiles lists, and leaves no mark behind", async () => {
    const dir = path.join(root, "dist");
    earlierBuild(dir);
    const since = markStart(dir);
    expect(typeof since).toBe("bigint");
    expect(await seeFilesAside(dir)).toEqual(seeFiles(dir));
    expect(readdirSync(dir).sort()).toEqual(["reviews", "reviews.json"]);
  });

  it("keeps a file the build wrote before the listing reached it", () => {
    const dir = path.join(root, "dist");
    earlierBuild(dir);
    // Dated in the past: written before the build started.
    for (const f of ["reviews/a/index.html", "reviews/b/index.html", "reviews/c/index.html", "reviews.json"])
      utimesSync(path.join(dir, f), new Date(0), new Date(0));
    const since = markStart(dir);
    // The build writes a's page (an asset, say, that is no route's output) before the worker sees it.
    const a = path.join(dir, "reviews", "a", "index.html");
    writeFileSync(a, "<p>a, again</p>");
    const before = seeFiles(dir);
    expect(pruneUnwritten(dir, before, new Set(), since)).toBe(3);
    expect(readFileSync(a, "utf8")).toBe("<p>a, again</p>");
    // Without the mark it would have looked unwritten.
    const again = seeFiles(dir);
    expect(pruneUnwritten(dir, again, new Set())).toBe(1);
  });
});

describe("holdsLastBuild", () => {
  it("trusts a folder only while its header manifest is the one recorded", () => {
    const dir = path.join(root, "dist");
    const cache = path.join(root, "cache");
    earlierBuild(dir);
    mkdirSync(cache);
    writeFileSync(path.join(dir, "_headers.json"), "{}");
    expect(holdsLastBuild(cache, dir)).toBe(false);
    recordLastBuild(cache, dir);
    expect(holdsLastBuild(cache, dir)).toBe(true);
    // Another folder with the same files is not the one recorded.
    const other = path.join(root, "other");
    cpSync(dir, other, { recursive: true, preserveTimestamps: true });
    expect(holdsLastBuild(cache, other)).toBe(false);
    // Any other build rewrites the manifest.
    writeFileSync(path.join(dir, "_headers.json"), "{}");
    expect(holdsLastBuild(cache, dir)).toBe(false);
  });
});
