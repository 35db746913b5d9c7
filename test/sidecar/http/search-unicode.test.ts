import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../helpers/app-server.ts";
import { buildSite } from "../../helpers/build-site.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

/**
 * Text search over text that is not ASCII: a review written "Café Müller" (precomposed, NFC, as
 * most editors type it) and a client that sends the same words decomposed (NFD: e + U+0301, as
 * macOS file names and some input methods give them), or the other way round. The Unicode
 * Standard (conformance C6) has canonically equivalent sequences read alike. And a query within
 * the 200 characters whose folded form is longer (İ lower-cases to i and U+0307): its `next` link
 * must be one the server takes. And Greek, whose Σ lower-cases to ς at a word's end and σ elsewhere:
 * a word's capitals, or its beginning, must still find it.
 */
const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.example";
const REVIEW = "2025-03-10-lauren-m";
const NFC = "Caf\u00e9 M\u00fcller";
/** Two reviews hold it; 196 characters as sent, 226 lower-cased. */
const TURKISH = "İyi İnsanlar, İlgili İdare, İçten İlgi. ".repeat(6).slice(0, 196).trimEnd();
const TURKISH_REVIEWS = ["2025-03-10-carlos-d", "2025-01-14-heather-w"];
const GREEK_REVIEW = "2024-09-03-priya-s";

const temp = tempFolders();
let app: TestApp;

beforeAll(async () => {
  const dir = await temp.copy(FIXTURE, "pr-search-unicode-");
  const file = path.join(dir, `reviews/2025/${REVIEW}.yaml`);
  const yaml = await readFile(file, "utf8");
  await writeFile(file, yaml.replace("Only gripe: the waiting room chairs.", `Only gripe: the ${NFC} chairs.`));
  for (const id of TURKISH_REVIEWS) {
    const other = path.join(dir, `reviews/2025/${id}.yaml`);
    await writeFile(other, (await readFile(other, "utf8")).replace(/^text: \|\n/m, `text: |\n  ${TURKISH}\n`));
  }
  const greek = path.join(dir, `reviews/2024/${GREEK_REVIEW}.yaml`);
  await writeFile(
    greek,
    (await readFile(greek, "utf8")).replace(/^text: \|\n/m, "text: |\n  Ο κύριος Οδυσσέας ήταν πολύ καλός.\n"),
  );
  const result = await buildSite(dir, { BASE_URL: BASE });
  if (result.code !== 0) throw new Error(`build failed:\n${result.stdout}\n${result.stderr}`);
  temp.add(result.distDir);
  app = await startApp(result.distDir, { env: { BASE_URL: BASE, RATE_LIMIT_PER_MINUTE: "1000000" } });
});

afterAll(async () => {
  await app?.close();
});

const ids = async (query: string) => {
  const res = await fetch(`${app.url}/api/reviews/search?${new URLSearchParams({ query })}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { reviews: { id: string }[] }).reviews.map((r) => r.id);
};

describe("search of text that is not ASCII", () => {
  it("finds a review whatever normalisation form the query is sent in, as the same canonical text", async () => {
    expect(await ids(NFC)).toEqual([REVIEW]);
    expect(await ids(NFC.normalize("NFD"))).toEqual([REVIEW]);
    expect(await ids("caf\u0065\u0301 m\u0075\u0308ller")).toEqual([REVIEW]);
    expect(await ids("CAF\u00c9")).toEqual([REVIEW]);
  });

  it("answers both forms with one canonical query: the same next link and the same ETag", async () => {
    const url = (q: string) => `${app.url}/api/reviews/search?${new URLSearchParams({ query: q, limit: "1" })}`;
    const [nfc, nfd] = await Promise.all([fetch(url(NFC)), fetch(url(NFC.normalize("NFD")))]);
    expect(nfd.headers.get("etag")).toBe(nfc.headers.get("etag"));
    expect((await nfd.json()).next).toBe((await nfc.json()).next);
  });
});

describe("a query whose folded form is longer than the limit", () => {
  it("pages with a next link the server takes, to the same matches", async () => {
    expect([...TURKISH].length).toBeLessThanOrEqual(200);
    expect([...TURKISH.toLowerCase()].length).toBeGreaterThan(200);
    const first = await fetch(`${app.url}/api/reviews/search?${new URLSearchParams({ query: TURKISH, limit: "1" })}`);
    expect(first.status).toBe(200);
    const page = (await first.json()) as { reviews: { id: string }[]; total: number; next: string };
    expect(page.total).toBe(2);
    const next = await fetch(page.next.replace(BASE, app.url));
    expect(next.status, JSON.stringify(await next.clone().json())).toBe(200);
    const second = (await next.json()) as { reviews: { id: string }[]; next: string | null };
    expect([...page.reviews, ...second.reviews].map((r) => r.id).sort()).toEqual([...TURKISH_REVIEWS].sort());
    expect(second.next).toBeNull();
  });
});

describe("a Greek word, whose sigma has two small forms", () => {
  it("is found by its capitals, its beginning and a final sigma typed as σ", async () => {
    for (const query of ["ΟΔΥΣΣΈΑΣ", "ΟΔΥΣ", "οδυσ", "ΚΎΡΙΟΣ Ο", "κύριοσ", "καλόσ."]) {
      expect(await ids(query), query).toEqual([GREEK_REVIEW]);
    }
  });
});
