import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { emptyAside } from "../../../src/integrations/empty-out-dir.ts";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "empty-out-dir-"));
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

  it("leaves to Astro a folder that is missing, empty, a symbolic link or holds .git", () => {
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
