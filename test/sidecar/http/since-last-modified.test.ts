import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { codeSinceMs } from "../../../sidecar/build/code-identity.ts";
import type { HeadersManifest } from "../../../src/http-headers/manifest.ts";
import { startApp, type TestApp } from "../../helpers/app-server.ts";
import { buildBeforeAll } from "../../helpers/build-site.ts";
import { PROJECT_CONTENT } from "../../helpers/project-content.ts";

/**
 * A since/{date} answer is written by the sidecar's code from the dataset, so its Last-Modified is
 * the later of the two. With the dataset's alone, a deploy that changed how answers are written
 * kept it, and a client revalidating with If-Modified-Since alone was told 304 for a body it did
 * not hold. Here the dataset is dated before the process started (as a build made before a deploy is).
 */
const DATASET_DATE = "Wed, 01 Jan 2020 00:00:00 GMT";
let app: TestApp;

const built = buildBeforeAll(PROJECT_CONTENT);

beforeAll(async () => {
  const file = path.join(built.distDir, "_headers.json");
  const manifest = JSON.parse(await readFile(file, "utf8")) as HeadersManifest;
  const dataset = manifest.files["/reviews.json"];
  if (dataset === undefined) throw new Error("the build has no /reviews.json");
  dataset.last_modified = DATASET_DATE;
  await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
  app = await startApp(built.distDir);
});

afterAll(async () => {
  await app?.close();
});

describe("since/{date} Last-Modified", () => {
  const url = () => `${app.url}/api/reviews/since/2026-01-01`;

  it("is when the code began to serve (the process's start) when that is later than the dataset", async () => {
    const res = await fetch(url());
    expect(res.status).toBe(200);
    const sent = res.headers.get("last-modified") as string;
    expect(Date.parse(sent)).toBe(Math.floor(codeSinceMs() / 1000) * 1000);
    expect(Date.parse(sent)).toBeGreaterThan(Date.parse(DATASET_DATE));
  });

  it("answers an If-Modified-Since of the dataset's date with the body, and its own date with 304", async () => {
    expect((await fetch(url(), { headers: { "if-modified-since": DATASET_DATE } })).status).toBe(200);
    const sent = (await fetch(url())).headers.get("last-modified") as string;
    expect((await fetch(url(), { headers: { "if-modified-since": sent } })).status).toBe(304);
  });

  it("leaves the static dataset's own Last-Modified alone", async () => {
    expect((await fetch(`${app.url}/reviews.json`)).headers.get("last-modified")).toBe(DATASET_DATE);
  });

  it("is described in /openapi.json as it behaves: it can move while the ETag stays", async () => {
    const first = await fetch(url());
    // The same build with a later dataset date, as after an edit to a review older than the range.
    const file = path.join(built.distDir, "_headers.json");
    const manifest = JSON.parse(await readFile(file, "utf8")) as HeadersManifest;
    // A date a whole second after the process's start, and not ahead of the clock (which is sent instead).
    await vi.waitUntil(() => Date.now() >= codeSinceMs() + 1000, { timeout: 5000, interval: 50 });
    const later = new Date(Math.floor(Date.now() / 1000) * 1000).toUTCString();
    (manifest.files["/reviews.json"] as { last_modified?: string }).last_modified = later;
    await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
    const again = await startApp(built.distDir);
    try {
      const second = await fetch(url().replace(app.url, again.url));
      expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
      expect(Date.parse(second.headers.get("last-modified") as string)).toBeGreaterThan(
        Date.parse(first.headers.get("last-modified") as string),
      );
    } finally {
      await again.close();
    }
    type Doc = {
      paths: Record<
        string,
        { get: { responses: Record<string, { headers: Record<string, { description: string }> }> } }
      >;
    };
    const doc = (await (await fetch(`${app.url}/openapi.json`)).json()) as Doc;
    for (const status of ["200", "304"]) {
      const described =
        doc.paths["/api/reviews/since/{date}"]?.get.responses[status]?.headers["Last-Modified"]?.description;
      expect(described, status).not.toMatch(/kept while the ETag is unchanged/);
      expect(described, status).toMatch(/started/);
    }
  });
});
