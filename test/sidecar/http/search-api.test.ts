import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReviewRecord, ReviewsDataset } from "../../../src/content/records.ts";
import { startApp, type TestApp } from "../../helpers/app-server.ts";
import { buildSite } from "../../helpers/build-site.ts";

const CONTENT = path.resolve(import.meta.dirname, "../../../content");
const BASE = "https://reviews.test";
let app: TestApp;
let dataset: ReviewsDataset;
let dist: string;

beforeAll(async () => {
  const build = await buildSite(CONTENT, { BASE_URL: BASE });
  expect(build.code, build.stderr).toBe(0);
  dist = build.distDir;
  dataset = JSON.parse(await readFile(path.join(dist, "reviews.json"), "utf8"));
  app = await startApp(dist, { env: { BASE_URL: BASE, RATE_LIMIT_PER_MINUTE: "1000000" } });
});

afterAll(async () => {
  await app?.close();
  if (dist) await rm(dist, { recursive: true, force: true });
});

const get = async (qs: string) => {
  const res = await fetch(`${app.url}/api/reviews/search${qs ? `?${qs}` : ""}`);
  return { status: res.status, body: await res.json() };
};

/** The obvious implementation the index must agree with. */
function reference(reviews: ReviewRecord[], p: Record<string, string>) {
  const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();
  const techs = dataset.business.technicians;
  const tech = p.mentions_technician
    ? techs.find((t) =>
        [t.id, t.name, ...t.aliases].some(
          (n) =>
            norm(n)
              .replace(/[.\s]+/g, " ")
              .trim() ===
            norm(p.mentions_technician as string)
              .replace(/[.\s]+/g, " ")
              .trim(),
        ),
      )?.id
    : undefined;
  const q = p.query !== undefined ? norm(p.query) : "";
  const all = reviews.filter(
    (r) =>
      (p.rating === undefined || r.rating === Number(p.rating)) &&
      (p.min_rating === undefined || r.rating >= Number(p.min_rating)) &&
      (p.since === undefined || r.date >= p.since) &&
      (p.until === undefined || r.date <= p.until) &&
      (q === "" || norm(r.text).includes(q)) &&
      (tech === undefined || r.technicians.includes(tech)) &&
      (p.mentions_service === undefined || r.services.includes(p.mentions_service)),
  );
  const limit = Number(p.limit ?? 20);
  const offset = Number(p.offset ?? 0);
  return { all, page: all.slice(offset, offset + limit), limit, offset };
}

describe("GET /api/reviews/search", () => {
  it("returns full records identical to /reviews.json, newest first", async () => {
    const { status, body } = await get("limit=100");
    expect(status).toBe(200);
    expect(body.reviews).toEqual(dataset.reviews.slice(0, 100));
    expect(body).toMatchObject({ count: 100, total: dataset.reviews.length, limit: 100, offset: 0 });
    expect(body.next).toBe(`${BASE}/api/reviews/search?limit=100&offset=100`);
  });

  it("matches a straightforward reference filter for random parameter combinations", async () => {
    const words = ["back", "Dr. Bell", "  front   DESK ", "billing", "x-ray", "parking", "", "ab", "neck pain", "zzzz"];
    const techNames = ["Dr. Patel", "anika patel", "patel", "Dr. Marcus", "jenna", "tom-lindqvist", "Ms. Okafor"];
    const services = dataset.business.services.map((s) => s.id);
    const date = fc
      .date({ min: new Date("2022-12-01T00:00:00Z"), max: new Date("2026-12-31T00:00:00Z"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
    const params = fc.record(
      {
        rating: fc.integer({ min: 1, max: 5 }).map(String),
        min_rating: fc.constantFrom("1", "2.5", "3", "4", "4.5", "5"),
        since: date,
        until: date,
        query: fc.constantFrom(...words),
        mentions_technician: fc.constantFrom(...techNames),
        mentions_service: fc.constantFrom(...services),
        limit: fc.integer({ min: 1, max: 100 }).map(String),
        offset: fc.integer({ min: 0, max: 150 }).map(String),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(params, async (p) => {
        if (p.since && p.until && p.since > p.until) [p.since, p.until] = [p.until, p.since];
        const { status, body } = await get(new URLSearchParams(p).toString());
        expect(status).toBe(200);
        const ref = reference(dataset.reviews, p);
        expect(body.total).toBe(ref.all.length);
        expect(body.reviews.map((r: ReviewRecord) => r.id)).toEqual(ref.page.map((r) => r.id));
        expect(body.reviews).toEqual(ref.page);
        expect(body.count).toBe(ref.page.length);
        if (ref.offset + ref.limit < ref.all.length) {
          const next = new URL(body.next);
          expect(next.origin + next.pathname).toBe(`${BASE}/api/reviews/search`);
          expect(next.searchParams.get("offset")).toBe(String(ref.offset + ref.limit));
          // Following `next` continues exactly where this page ended.
          const follow = await get(next.searchParams.toString());
          expect(follow.body.reviews.map((r: ReviewRecord) => r.id)).toEqual(
            ref.all.slice(ref.offset + ref.limit, ref.offset + 2 * ref.limit).map((r) => r.id),
          );
        } else {
          expect(body.next).toBeNull();
        }
      }),
      { numRuns: 150 },
    );
  });

  it.each([
    { rating: "4" },
    { min_rating: "4" },
    { min_rating: "1" },
    { since: "2026-01-01" },
    { until: "2023-06-30" },
    { query: "front desk" },
    { mentions_technician: "Dr. Bell" },
    { mentions_service: "massage-therapy" },
  ] as Record<string, string>[])("answers a single filter %o exactly like the reference", async (p) => {
    const { body } = await get(new URLSearchParams({ ...p, limit: "100" }).toString());
    const ref = reference(dataset.reviews, { ...p, limit: "100" });
    expect(body.total).toBe(ref.all.length);
    expect(body.reviews.map((r: ReviewRecord) => r.id)).toEqual(ref.page.map((r) => r.id));
  });

  it.each([
    ["rating=6", "rating", "6"],
    ["rating=4.5", "rating", "4.5"],
    ["rating=abc", "rating", "abc"],
    ["min_rating=0.5", "min_rating", "0.5"],
    ["min_rating=five", "min_rating", "five"],
    ["since=2024-02-30", "since", "2024-02-30"],
    ["until=2024-1-5", "until", "2024-1-5"],
    ["since=yesterday", "since", "yesterday"],
    ["limit=0", "limit", "0"],
    ["limit=101", "limit", "101"],
    ["offset=-1", "offset", "-1"],
    ["offset=1.5", "offset", "1.5"],
    [`query=${"a".repeat(201)}`, "query", "a".repeat(201)],
    ["mentions_technician=Dr.%20Nobody", "mentions_technician", "Dr. Nobody"],
    ["mentions_service=reiki", "mentions_service", "reiki"],
    ["ratng=5", "ratng", "5"],
  ])("rejects %s naming the parameter and the value", async (qs, param, value) => {
    const { status, body } = await get(qs);
    expect(status).toBe(400);
    expect(body.error).toBe("invalid_query");
    const issue = body.issues.find((i: { path: string }) => i.path === param);
    expect(issue).toBeDefined();
    expect(issue.value).toBe(value);
    expect(typeof issue.message).toBe("string");
    expect(body.message).toContain(param);
  });

  it("reports a repeated parameter with every value given", async () => {
    const { status, body } = await get("rating=5&rating=4");
    expect(status).toBe(400);
    expect(body.issues).toEqual([
      { path: "rating", value: ["5", "4"], message: "given 2 times; give it at most once" },
    ]);
  });

  it("rejects since after until", async () => {
    const { body } = await get("since=2025-01-02&until=2025-01-01");
    expect(body.issues[0]).toMatchObject({ path: "since", value: "2025-01-02" });
  });

  it("lists the valid technicians and services when one is unknown", async () => {
    const t = await get("mentions_technician=Dr.%20Who");
    expect(t.body.issues[0].message).toContain("Dr. Anika Patel");
    const s = await get("mentions_service=reiki");
    expect(s.body.issues[0].message).toContain("massage-therapy");
  });

  it("treats an empty or blank query as absent and normalises whitespace", async () => {
    const all = await get("");
    const blank = await get("query=%20%20%20");
    expect(blank.body.total).toBe(all.body.total);
    const spaced = await get("query=%20LOWER%20%20%20back%20");
    const plain = await get("query=lower%20back");
    expect(spaced.body.total).toBe(plain.body.total);
    expect(plain.body.total).toBeGreaterThan(0);
  });

  it("ignores an Authorization header", async () => {
    const res = await fetch(`${app.url}/api/reviews/search?limit=1`, { headers: { Authorization: "Bearer nonsense" } });
    expect(res.status).toBe(200);
  });
});

describe("hostile query names and paths", () => {
  const since = async (rest: string) => {
    const res = await fetch(`${app.url}/api/reviews/since/${rest}`);
    return { status: res.status, body: await res.json() };
  };

  it.each(["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"])(
    "answers ?%s=x with 400 and an issue naming the parameter and the value, on search and since",
    async (name) => {
      for (const { status, body } of [await get(`${name}=x`), await since(`2024-01-01?${name}=x`)]) {
        expect(status).toBe(400);
        expect(body.error).toBe("invalid_query");
        expect(body.issues).toEqual([
          { path: name, value: "x", message: expect.stringContaining("unknown parameter") },
        ]);
      }
    },
  );

  it.each(["%", "%zz", "2024-01-0%"])("answers since/%s with the standard 400 shape naming the date", async (raw) => {
    const { status, body } = await since(raw);
    expect(status).toBe(400);
    expect(body).toEqual({
      error: "invalid_query",
      message: expect.stringContaining("date:"),
      issues: [{ path: "date", value: raw, message: expect.stringContaining("not valid percent-encoding") }],
    });
  });

  it("gives every other 400 of the API an issues array too", async () => {
    const res = await fetch(`${app.url}/api/reviews/search?rating=%zz`);
    const body = await res.json();
    expect(res.status).toBe(400);
    expect(body).toEqual({ error: expect.any(String), message: expect.any(String), issues: expect.any(Array) });
    expect(body.issues.length).toBeGreaterThan(0);
  });
});
