import { readFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from "node:zlib";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReviewRecord, ReviewsDataset } from "../../../src/content/records.ts";
import { startApp, type TestApp } from "../../helpers/app-server.ts";
import { buildBeforeAll } from "../../helpers/build-site.ts";
import { PROJECT_CONTENT } from "../../helpers/project-content.ts";
import { referenceSearch, searchParamsArbitrary } from "../../helpers/search-reference.ts";

/**
 * The result store of search and since: what it sends, in every content coding, is what the
 * uncached path (RESPONSE_CACHE_MB=0) sends, and what the reference finds.
 */

const CONTENT = PROJECT_CONTENT;
const BASE = "https://reviews.test";
let app: TestApp;
/** The same build with the result store off (RESPONSE_CACHE_MB=0): what the uncached path sends. */
let uncached: TestApp;
let dataset: ReviewsDataset;

const built = buildBeforeAll(CONTENT, { BASE_URL: BASE });

beforeAll(async () => {
  dataset = JSON.parse(await readFile(path.join(built.distDir, "reviews.json"), "utf8"));
  app = await startApp(built.distDir, { env: { BASE_URL: BASE, RATE_LIMIT_PER_MINUTE: "1000000" } });
  uncached = await startApp(built.distDir, {
    env: { BASE_URL: BASE, RATE_LIMIT_PER_MINUTE: "1000000", RESPONSE_CACHE_MB: "0" },
  });
});

afterAll(async () => {
  await app?.close();
  await uncached?.close();
});

interface Raw {
  status: number;
  etag: string | undefined;
  encoding: string | undefined;
  vary: string | undefined;
  body: Buffer;
}

/** A GET that returns the bytes on the wire: fetch() would decode them. */
function rawGet(base: string, p: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${p}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            etag: res.headers.etag,
            encoding: res.headers["content-encoding"],
            vary: res.headers.vary,
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on("error", reject);
  });
}

function decode(r: Raw): unknown {
  const plain =
    r.encoding === "br"
      ? brotliDecompressSync(r.body)
      : r.encoding === "gzip"
        ? gunzipSync(r.body)
        : r.encoding === "zstd"
          ? zstdDecompressSync(r.body)
          : r.body;
  return JSON.parse(plain.toString("utf8"));
}

const BROWSER = "gzip, deflate, br, zstd";
const ACCEPT = [BROWSER, "gzip", "br", "gzip, br;q=0", "identity", ""];

describe("result store", () => {
  it("sends exactly what the uncached path sends, and what the reference finds", async () => {
    const order = fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 9, maxLength: 9 });
    await fc.assert(
      fc.asyncProperty(
        searchParamsArbitrary(dataset.business),
        order,
        fc.constantFrom(...ACCEPT),
        async (p, rank, ae) => {
          // Parameters in a random order: equivalent URLs must get the same bytes and ETag.
          const entries = Object.entries(p).sort(
            (a, b) => (rank[Object.keys(p).indexOf(a[0])] ?? 0) - (rank[Object.keys(p).indexOf(b[0])] ?? 0),
          );
          const url = `/api/reviews/search?${new URLSearchParams(entries)}`;
          const canonicalOrder = `/api/reviews/search?${new URLSearchParams(p)}`;
          const headers: Record<string, string> = ae ? { "accept-encoding": ae } : {};
          const miss = await rawGet(app.url, url, headers);
          const hit = await rawGet(app.url, canonicalOrder, headers);
          const plain = await rawGet(uncached.url, url, headers);
          expect(miss.status).toBe(200);
          for (const r of [hit, plain]) {
            expect(r.status).toBe(200);
            expect(r.etag).toBe(miss.etag);
            expect(r.encoding).toBe(miss.encoding);
            expect(r.body.equals(miss.body)).toBe(true);
          }
          expect(miss.vary).toBe("Accept-Encoding");
          const body = decode(hit) as { reviews: ReviewRecord[]; total: number };
          const ref = referenceSearch(dataset.reviews, dataset.business, p);
          expect(body.total).toBe(ref.all.length);
          expect(body.reviews).toEqual(ref.page);
          const revalidated = await rawGet(app.url, url, { ...headers, "if-none-match": miss.etag as string });
          expect(revalidated.status).toBe(304);
        },
      ),
      { numRuns: 120 },
    );
  });

  it("compresses only bodies of 1 KB or more, preferring zstd for browsers", async () => {
    const none = await rawGet(app.url, "/api/reviews/search?query=no+review+says+this", { "accept-encoding": BROWSER });
    expect(none.body.length).toBeLessThan(1024);
    expect(none.encoding).toBeUndefined();
    const identity = await rawGet(app.url, "/api/reviews/search?query=no+review+says+this", {});
    expect(none.etag).toBe(identity.etag);
    const page = await rawGet(app.url, "/api/reviews/search?limit=50", { "accept-encoding": BROWSER });
    expect(page.encoding).toBe("zstd");
    expect(page.etag).toMatch(/-zst"$/);
    const br = await rawGet(app.url, "/api/reviews/search?limit=50", { "accept-encoding": "br" });
    expect(br.encoding).toBe("br");
    expect(decode(page)).toEqual(decode(br));
  });

  it("serves since/{date} from the cache with the uncached bytes, and revalidates without a body", async () => {
    for (const date of ["2026-11-01", "2026-01-01", "2020-01-01", "2099-01-01"]) {
      for (const ae of ACCEPT) {
        const headers: Record<string, string> = ae ? { "accept-encoding": ae } : {};
        const p = `/api/reviews/since/${date}`;
        // Revalidation first: the entry then holds only the validator, and the 200 adds the body.
        const plain = await rawGet(uncached.url, p, headers);
        const first = await rawGet(app.url, p, { ...headers, "if-none-match": plain.etag as string });
        expect(first.status).toBe(304);
        expect(first.etag).toBe(plain.etag);
        const full = await rawGet(app.url, p, headers);
        const again = await rawGet(app.url, p, headers);
        for (const r of [full, again]) {
          expect(r.etag).toBe(plain.etag);
          expect(r.encoding).toBe(plain.encoding);
          expect(r.body.equals(plain.body)).toBe(true);
        }
        const expected = dataset.reviews.filter((r) => r.date >= date);
        expect(decode(full)).toEqual({ since: date, count: expected.length, reviews: expected });
        if (plain.body.length < 1024) expect(plain.encoding).toBeUndefined();
      }
    }
  });
});
