import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HeadersManifest } from "../../../src/http-headers/manifest.ts";
import { buildOutputs } from "../../../src/integrations/build-outputs.ts";

/**
 * The header manifest across builds, as npm start's build worker makes them: each build follows the
 * one before in the same process, in a fresh folder, and carries over Last-Modified for every file
 * whose bytes did not change, whether the earlier manifest is the one this process wrote or one it
 * has to read.
 */
let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "build-outputs-"));
  await mkdir(path.join(root, "cache"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const logger = { info() {}, warn() {}, error() {} };

/** One build's hooks over `out`, following the build in `previousDir`. */
async function build(out: string, previousDir: string): Promise<HeadersManifest> {
  const hooks = buildOutputs({ baseUrl: "https://reviews.example", baseUrlExplicit: true, previousDir })
    .hooks as Record<string, (arg: unknown) => Promise<void> | void>;
  await hooks["astro:config:setup"]?.({ command: "build" });
  await hooks["astro:config:done"]?.({
    config: { cacheDir: pathToFileURL(`${path.join(root, "cache")}/`), outDir: pathToFileURL(`${out}/`) },
  });
  await hooks["astro:build:done"]?.({ dir: pathToFileURL(`${out}/`), logger });
  return JSON.parse(await readFile(path.join(out, "_headers.json"), "utf8")) as HeadersManifest;
}

const lastModified = (m: HeadersManifest, p: string) => m.files[p]?.last_modified;

describe("header manifest from one build to the next", () => {
  it("carries Last-Modified over from the manifest this process wrote, and from one it must read", async () => {
    const first = path.join(root, "b1");
    await mkdir(path.join(first, "reviews", "a"), { recursive: true });
    await writeFile(path.join(first, "index.html"), "<p>home</p>");
    await writeFile(path.join(first, "reviews", "a", "index.html"), "<p>a</p>");
    const one = await build(first, first);
    // Last-Modified has whole seconds: the next build must be a later one.
    await new Promise((r) => setTimeout(r, 1100));

    // The next build starts from a copy of the last and follows it: the manifest this process wrote.
    const second = path.join(root, "b2");
    await cp(first, second, { recursive: true });
    await writeFile(path.join(second, "index.html"), "<p>home, edited</p>");
    const two = await build(second, first);
    expect(lastModified(two, "/reviews/a/index.html")).toBe(lastModified(one, "/reviews/a/index.html"));
    expect(lastModified(two, "/index.html")).not.toBe(lastModified(one, "/index.html"));

    // A build following the first one again: its manifest is no longer the last this process
    // wrote, so it is read from disk, and the unedited home page keeps the first build's time.
    const third = path.join(root, "b3");
    await cp(first, third, { recursive: true });
    const three = await build(third, first);
    expect(lastModified(three, "/index.html")).toBe(lastModified(one, "/index.html"));
    expect(lastModified(three, "/reviews/a/index.html")).toBe(lastModified(one, "/reviews/a/index.html"));

    // A manifest rewritten in place is read again, even with the bytes this process wrote.
    const fourth = path.join(root, "b4");
    await cp(third, fourth, { recursive: true });
    const bytes = await readFile(path.join(third, "_headers.json"));
    await writeFile(path.join(third, "_headers.json"), bytes);
    expect(await build(fourth, third)).toEqual(three);
  });
});
