import { appendFile, cp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SnapshotStore } from "../../../sidecar/build/snapshot-store.ts";
import { MANIFEST_FILE, strongEtag } from "../../../src/http-headers/manifest.ts";
import { buildBeforeAll, tempDistDir } from "../../helpers/build-site.ts";

/**
 * `reload(dir, { ifChanged })`, the path of a publish ping and of an instance catching up with an announced build: a
 * folder that still holds the loaded build is not loaded again; another folder, or the same folder
 * with another header manifest, is.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
let copy: string;

const built = buildBeforeAll(FIXTURE);

beforeAll(async () => {
  copy = await tempDistDir("pr-snapshot-copy-");
  await cp(built.distDir, copy, { recursive: true });
});

afterAll(async () => {
  await rm(copy, { recursive: true, force: true });
  await Promise.all(edited.map((d) => rm(d, { recursive: true, force: true })));
});

const edited: string[] = [];
/** A copy of the build whose first review's text says `text`, its header manifest brought up to date. */
async function editedBuild(text: string): Promise<{ dir: string; file: string; bytes: Buffer }> {
  const dir = await tempDistDir("pr-snapshot-edited-");
  edited.push(dir);
  await cp(built.distDir, dir, { recursive: true });
  const file = path.join(dir, "reviews.json");
  const dataset = JSON.parse(await readFile(file, "utf8"));
  dataset.reviews[0].text = text;
  const bytes = Buffer.from(JSON.stringify(dataset));
  await writeFile(file, bytes);
  const manifestFile = path.join(dir, MANIFEST_FILE);
  const manifest = JSON.parse(await readFile(manifestFile, "utf8"));
  manifest.files["/reviews.json"].etag = strongEtag(bytes);
  await writeFile(manifestFile, JSON.stringify(manifest));
  return { dir, file, bytes };
}

describe("SnapshotStore.reload with ifChanged", () => {
  it("loads nothing and swaps nothing when the folder still holds the loaded build", async () => {
    const store = await SnapshotStore.open(built.distDir);
    const first = store.current;
    expect(await store.reload(undefined, { ifChanged: true })).toBe(first);
    expect(store.current).toBe(first);
    // Without the option the same folder is loaded again, as before.
    const again = await store.reload();
    expect(again).not.toBe(first);
    expect(store.current).toBe(again);
  });

  it("loads another folder, and the same folder once its header manifest has changed", async () => {
    const store = await SnapshotStore.open(built.distDir);
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

describe("SnapshotStore.prepare: the dataset of a build read before the build ends", () => {
  it("stands for the build's reviews.json when its ETag is the manifest's", async () => {
    const store = await SnapshotStore.open(built.distDir);
    const reviews = store.current.index.size;
    const next = await editedBuild("Read ahead of the build's end.");
    await store.prepare(next.file);
    // What reload would read now is torn: only the bytes read ahead can have been used.
    await writeFile(next.file, next.bytes.subarray(0, 100));
    const s = await store.reload(next.dir);
    expect(s.version).toBe(strongEtag(next.bytes));
    expect(s.index.size).toBe(reviews);
    expect(Buffer.from(s.topics.get("/reviews.json")?.body ?? []).equals(next.bytes)).toBe(true);
    const first = JSON.parse(next.bytes.toString()).reviews[0];
    expect(s.index.byId(first.id)?.text).toBe("Read ahead of the build's end.");
  });

  it("is not used by a build whose manifest names other bytes, nor after a failed build lets it go", async () => {
    const store = await SnapshotStore.open(built.distDir);
    const other = await editedBuild("Another build's dataset.");
    const next = await editedBuild("The build that goes live.");
    await store.prepare(other.file);
    const s = await store.reload(next.dir);
    expect(Buffer.from(s.topics.get("/reviews.json")?.body ?? []).equals(next.bytes)).toBe(true);

    const third = await editedBuild("A third build.");
    await store.prepare(third.file);
    await store.prepare(undefined);
    await writeFile(third.file, third.bytes.subarray(0, 100));
    await expect(store.reload(third.dir)).rejects.toThrow(/does not match the ETag/);
  });
});
