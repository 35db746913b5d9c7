import { appendFile, cp, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SnapshotStore } from "../../../sidecar/build/snapshot-store.ts";
import { MANIFEST_FILE } from "../../../src/http-headers/manifest.ts";
import { buildSite, tempDistDir } from "../../helpers/build-site.ts";

/**
 * `reload(dir, { ifChanged })`, the path of a publish ping and of an instance catching up with an announced build: a
 * folder that still holds the loaded build is not loaded again; another folder, or the same folder
 * with another header manifest, is.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
let dist: string;
let copy: string;

beforeAll(async () => {
  const built = await buildSite(FIXTURE);
  expect(built.code, built.stderr).toBe(0);
  dist = built.distDir;
  copy = await tempDistDir("pr-snapshot-copy-");
  await cp(dist, copy, { recursive: true });
});

afterAll(async () => {
  await rm(dist, { recursive: true, force: true });
  await rm(copy, { recursive: true, force: true });
});

describe("SnapshotStore.reload with ifChanged", () => {
  it("loads nothing and swaps nothing when the folder still holds the loaded build", async () => {
    const store = await SnapshotStore.open(dist);
    const first = store.current;
    expect(await store.reload(undefined, { ifChanged: true })).toBe(first);
    expect(store.current).toBe(first);
    // Without the option the same folder is loaded again, as before.
    const again = await store.reload();
    expect(again).not.toBe(first);
    expect(store.current).toBe(again);
  });

  it("loads another folder, and the same folder once its header manifest has changed", async () => {
    const store = await SnapshotStore.open(dist);
    const first = store.current;
    const moved = await store.reload(copy, { ifChanged: true });
    expect(moved).not.toBe(first);
    expect(moved.dir).not.toBe(first.dir);
    // Same dataset: the index is kept, only the folder changed.
    expect(moved.version).toBe(first.version);
    expect(moved.index).toBe(first.index);

    await appendFile(path.join(copy, MANIFEST_FILE), "\n");
    const rewritten = await store.reload(copy, { ifChanged: true });
    expect(rewritten).not.toBe(moved);
    expect(rewritten.build).not.toBe(moved.build);
    expect(store.current).toBe(rewritten);
  });
});
