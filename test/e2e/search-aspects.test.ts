import { readFile } from "node:fs/promises";
import path from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReviewsDataset } from "../../src/content/records.ts";
import type { Insights } from "../../src/insights/schema.ts";
import { buildBeforeAll } from "../helpers/build-site.ts";
import { connectClient, type McpTestApp, startMcpApp } from "../helpers/mcp-app.ts";
import { PROJECT_CONTENT } from "../helpers/project-content.ts";

/**
 * The per-review `aspects` annotation through every door, on a real build of the sample content:
 * the records, the `aspect`/`sentiment` search filter (HTTP and MCP), the JSON Feed extension,
 * /insights.json and the home page's evidence links must all tell the same story.
 */
const CONTENT = PROJECT_CONTENT;
const BASE = "https://reviews.test";
let app: McpTestApp;
let dataset: ReviewsDataset;
let insights: Insights;
let client: Awaited<ReturnType<typeof connectClient>>["client"];

const built = buildBeforeAll(CONTENT, { BASE_URL: BASE });

beforeAll(async () => {
  dataset = JSON.parse(await readFile(path.join(built.distDir, "reviews.json"), "utf8"));
  insights = JSON.parse(await readFile(path.join(built.distDir, "insights.json"), "utf8"));
  app = await startMcpApp(built.distDir, { env: { BASE_URL: BASE } });
  ({ client } = await connectClient(app.endpoint));
});

afterAll(async () => {
  await client?.close();
  await app?.close();
});

const search = async (qs: string) => {
  const res = await fetch(`${app.url}/api/reviews/search?${qs}`);
  return { status: res.status, body: await res.json() };
};

describe("per-review aspects", () => {
  it("annotates every review with its aspects, ordered by id, from the dataset's aspect list", () => {
    expect(dataset.aspects.map((a) => a.id)).toEqual([
      "pain-relief",
      "care",
      "staff",
      "scheduling",
      "billing",
      "facility",
      "location",
    ]);
    const valid = new Set(dataset.aspects.map((a) => a.id));
    expect(dataset.reviews.some((r) => r.aspects.length > 0)).toBe(true);
    for (const r of dataset.reviews) {
      const ids = r.aspects.map((a) => a.id);
      expect(ids).toEqual([...ids].sort());
      for (const a of r.aspects) {
        expect(valid.has(a.id)).toBe(true);
        expect(a.sentiment).toBe(a.score >= 0.05 ? "positive" : a.score <= -0.05 ? "negative" : "neutral");
      }
    }
  });

  it("counts in /insights.json equal the totals of the matching searches", async () => {
    for (const a of insights.aspects) {
      expect((await search(`aspect=${a.id}&limit=1`)).body.total, a.id).toBe(a.reviews);
      for (const side of ["positive", "neutral", "negative"] as const) {
        const { status, body } = await search(`aspect=${a.id}&sentiment=${side}&limit=1`);
        expect(status).toBe(200);
        expect(body.total, `${a.id} ${side}`).toBe(a[side]);
      }
    }
  });

  it("returns the same records from search and since as /reviews.json", async () => {
    const { body } = await search("aspect=billing&sentiment=negative&limit=100");
    const expected = dataset.reviews.filter((r) =>
      r.aspects.some((a) => a.id === "billing" && a.sentiment === "negative"),
    );
    expect(body.reviews).toEqual(expected);
    const since = await (await fetch(`${app.url}/api/reviews/since/${dataset.reviews[0]?.date}`)).json();
    expect(since.reviews[0].aspects).toEqual(dataset.reviews[0]?.aspects);
    const feed = JSON.parse(await readFile(path.join(built.distDir, "api/feed.json"), "utf8"));
    expect(feed.items[0]._review.aspects).toEqual(dataset.reviews[0]?.aspects);
  });

  it("rejects sentiment without aspect naming both parameters, and an unknown aspect listing the ids", async () => {
    const lone = await search("sentiment=negative");
    expect(lone.status).toBe(400);
    expect(lone.body.issues).toEqual([
      {
        path: "sentiment",
        value: "negative",
        message:
          "needs the aspect parameter too; sentiment filters the reviews of one aspect (e.g. aspect=billing&sentiment=negative)",
      },
    ]);
    const unknown = await search("aspect=parking&sentiment=bad");
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues).toEqual([
      { path: "sentiment", value: "bad", message: "expected one of positive, neutral, negative" },
      {
        path: "aspect",
        value: "parking",
        message: "unknown aspect id; valid ids are pain-relief, care, staff, scheduling, billing, facility, location",
      },
    ]);
  });

  it("accepts the same arguments in the MCP search_reviews tool", async () => {
    const ok = (await client.callTool({
      name: "search_reviews",
      arguments: { aspect: "billing", sentiment: "negative", limit: 1 },
    })) as CallToolResult;
    expect(ok.isError).toBeFalsy();
    expect((ok.structuredContent as { total: number }).total).toBe(
      insights.aspects.find((a) => a.id === "billing")?.negative,
    );
    const bad = (await client.callTool({
      name: "search_reviews",
      arguments: { sentiment: "negative" },
    })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain("needs the aspect parameter too");
  });

  it("lists on each aspect's evidence page exactly the reviews the search finds for it", async () => {
    for (const a of insights.aspects) {
      const html = await readFile(path.join(built.distDir, "insights", a.id, "negative", "index.html"), "utf8");
      const listed = [...html.matchAll(/<li class="evidence-item"[^>]*>\s*<a[^>]*href="\/reviews\/([a-z0-9-]+)\/"/g)];
      const { body } = await search(`aspect=${a.id}&sentiment=negative&limit=100`);
      expect(
        listed.map((m) => m[1]),
        a.id,
      ).toEqual(body.reviews.map((r: { id: string }) => r.id));
    }
  });

  it("shows no entity or aspect averaging 4.3 stars or more as net negative", () => {
    const entities = [
      ...insights.entities.technicians,
      ...insights.entities.services,
      ...insights.entities.service_areas,
    ];
    for (const e of entities) {
      if ((e.average_rating ?? 0) >= 4.3) expect(e.net_sentiment ?? 0, e.id).toBeGreaterThanOrEqual(0);
    }
    for (const a of insights.aspects) {
      const reviews = dataset.reviews.filter((r) => r.aspects.some((x) => x.id === a.id));
      const stars = reviews.reduce((s, r) => s + r.rating, 0) / reviews.length;
      if (stars >= 4.3) expect(a.mean_sentiment ?? 0, a.id).toBeGreaterThanOrEqual(0);
    }
  });

  it("follows the editors' aspects: labels in records, search, figures and quotes", async () => {
    // content/reviews/2026/2026-04-29-dan-e.yaml: "Good rehab, bad parking", confirmed by an editor.
    const dan = dataset.reviews.find((r) => r.id === "2026-04-29-dan-e");
    expect(dan?.aspects.map((a) => `${a.id}:${a.sentiment}:${a.source}`)).toEqual([
      "care:positive:editor",
      "facility:positive:editor",
      "location:negative:editor",
      "scheduling:positive:editor",
    ]);
    const unlabelled = dataset.reviews.filter(
      (r) => !["2026-04-29-dan-e", "2025-01-03-kevin-r", "2024-12-20-kelsey-r"].includes(r.id),
    );
    for (const r of unlabelled) for (const a of r.aspects) expect(a.source).toBe("machine");
    const { body } = await search("aspect=location&sentiment=negative&limit=100");
    expect(body.reviews.map((r: { id: string }) => r.id)).toContain("2026-04-29-dan-e");
    expect((await search("aspect=billing&limit=100")).body.reviews.map((r: { id: string }) => r.id)).not.toContain(
      "2026-04-29-dan-e",
    );
    const location = insights.aspects.find((a) => a.id === "location");
    expect(location?.negative).toBe(body.total);
    // The issue's misreadings are no quote: a patient's own accident, a past pain in a grateful review.
    const quotes = insights.aspects.flatMap((a) => [...a.examples.positive, ...a.examples.negative]);
    expect(quotes.map((q) => q.sentence).join("\n")).not.toMatch(/hauling a couch|could barely stand|Good rehab/);
    const painNegative = insights.aspects.find((a) => a.id === "pain-relief")?.examples.negative ?? [];
    expect(painNegative.map((q) => q.review_id)).not.toContain("2024-12-20-kelsey-r");
  });
});
