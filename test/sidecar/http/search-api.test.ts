import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReviewsDataset } from "../../../src/content/records.ts";
import { startApp, type TestApp } from "../../helpers/app-server.ts";
import { buildBeforeAll } from "../../helpers/build-site.ts";
import { PROJECT_CONTENT } from "../../helpers/project-content.ts";

const CONTENT = PROJECT_CONTENT;
const BASE = "https://reviews.test";
let app: TestApp;
let dataset: ReviewsDataset;

const built = buildBeforeAll(CONTENT, { BASE_URL: BASE });

beforeAll(async () => {
  dataset = JSON.parse(await readFile(path.join(built.distDir, "reviews.json"), "utf8"));
  app = await startApp(built.distDir, { env: { BASE_URL: BASE, RATE_LIMIT_PER_MINUTE: "1000000" } });
});

afterAll(async () => {
  await app?.close();
});

const get = async (qs: string) => {
  const res = await fetch(`${app.url}/api/reviews/search${qs ? `?${qs}` : ""}`);
  return { status: res.status, body: await res.json() };
};

describe("GET /api/reviews/search", () => {
  it("returns full records identical to /reviews.json, newest first", async () => {
    const { status, body } = await get("limit=100");
    expect(status).toBe(200);
    expect(body.reviews).toEqual(dataset.reviews.slice(0, 100));
    expect(body).toMatchObject({ count: 100, total: dataset.reviews.length, limit: 100, offset: 0 });
    expect(body.next).toBe(`${BASE}/api/reviews/search?limit=100&offset=100`);
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
    // Echoed as its first 200 characters and its length, as every long value (docs/api.md).
    [`query=${"a".repeat(201)}`, "query", `${"a".repeat(200)}… (201 characters)`],
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

  it("answers since after until with an empty page, as a range no JSON Schema can refuse", async () => {
    const { status, body } = await get("since=2025-01-02&until=2025-01-01");
    expect(status).toBe(200);
    expect(body).toMatchObject({ reviews: [], count: 0, total: 0 });
  });

  it("takes ids exactly and numbers in JSON spelling, as /openapi.json says", async () => {
    for (const qs of ["mentions_service=Massage-Therapy", "rating=%205", "limit=05", "rating=+5"]) {
      expect((await get(qs)).status, qs).toBe(400);
    }
    for (const qs of ["mentions_service=massage-therapy", "rating=5", "min_rating=4.0", "limit=1e1"]) {
      expect((await get(qs)).status, qs).toBe(200);
    }
  });

  it("echoes a value as sent but for what I-JSON forbids (noncharacters, as invalid UTF-8 already is): U+FFFD", async () => {
    const res = await fetch(`${app.url}/api/reviews/search?mentions_technician=Dr%EF%BF%BF%EF%B7%90Who%ED%A0%80`);
    expect(res.status).toBe(400);
    const raw = Buffer.from(await res.arrayBuffer());
    // No UTF-8 of U+FFFF or U+FDD0 in the body, and no escaped surrogate either.
    expect(raw.includes(Buffer.from("\uFFFF")) || raw.includes(Buffer.from("\uFDD0"))).toBe(false);
    expect(raw.toString("latin1")).not.toMatch(/(?<!\\)\\ud[89a-f]/i);
    const body = JSON.parse(raw.toString("utf8"));
    expect(body.issues[0]).toMatchObject({ path: "mentions_technician", value: "Dr\uFFFD\uFFFDWho\uFFFD\uFFFD\uFFFD" });
  });

  it("refuses a value whose percent-escapes are not UTF-8, naming it, rather than searching for U+FFFD", async () => {
    // "café" percent-encoded from ISO-8859-1, as a legacy form or client sends it: no match, silently.
    const latin1 = await get("query=caf%E9");
    expect(latin1.status).toBe(400);
    expect(latin1.body.issues).toEqual([
      {
        path: "query",
        value: "caf\uFFFD",
        message: expect.stringContaining('"caf\uFFFD" is not valid UTF-8'),
      },
    ]);
    // A value that is wrong anyway keeps its own message, which says the bytes were not UTF-8 too.
    const rating = await get("rating=%E0%A4&limit=1");
    expect(rating.status).toBe(400);
    expect(rating.body.issues).toEqual([
      { path: "rating", value: "\uFFFD", message: 'expected an integer from 1 to 5; "\uFFFD" is not valid UTF-8' },
    ]);
    // The same text in UTF-8 is searched as usual.
    expect((await get("query=caf%C3%A9")).status).toBe(200);
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

  it("reports a parameter given to since/{date} even when that date is already cached", async () => {
    expect((await since("2024-01-01")).status).toBe(200);
    const { status, body } = await since("2024-01-01?limit=3");
    expect(status).toBe(400);
    expect(body.issues).toEqual([{ path: "limit", value: "3", message: expect.stringContaining("unknown parameter") }]);
  });

  it.each(["%", "%zz", "2024-01-0%"])("answers since/%s with the standard 400 shape naming the date", async (raw) => {
    const { status, body } = await since(raw);
    expect(status).toBe(400);
    expect(body).toEqual({
      error: "invalid_query",
      message: expect.stringContaining("date:"),
      issues: [{ path: "date", value: raw, message: expect.stringContaining("not valid percent-encoding") }],
    });
  });

  it.each([
    ["%ED%A0%80", "\ufffd\ufffd\ufffd"],
    ["%C0%AF", "\ufffd\ufffd"],
  ])("says since/%s is not UTF-8, echoing it with U+FFFD as search does", async (raw, shown) => {
    const { status, body } = await since(raw);
    expect(status).toBe(400);
    expect(body.issues).toEqual([
      { path: "date", value: shown, message: expect.stringContaining("is not valid UTF-8") },
    ]);
    expect(body.issues[0].message).not.toContain("percent-encoding");
  });

  it("gives every other 400 of the API an issues array too", async () => {
    const res = await fetch(`${app.url}/api/reviews/search?rating=%zz`);
    const body = await res.json();
    expect(res.status).toBe(400);
    expect(body).toEqual({ error: expect.any(String), message: expect.any(String), issues: expect.any(Array) });
    expect(body.issues.length).toBeGreaterThan(0);
  });
});
