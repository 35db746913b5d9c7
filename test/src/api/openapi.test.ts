import { readFile } from "node:fs/promises";
import { Validator } from "@seriousme/openapi-schema-validator";
import openapiTS, { astToString } from "openapi-typescript";
import { describe, expect, it } from "vitest";
import { API_VERSION, buildOpenApi } from "../../../src/api/openapi.ts";
import type { ReviewsDataset } from "../../../src/content/records.ts";
import { SEARCH_PARAMS } from "../../../src/search/query.ts";
import { openApiInput } from "../../helpers/openapi-input.ts";

const input = await openApiInput();
const doc = buildOpenApi(input) as {
  openapi: string;
  info: { version: string };
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string;
        tags?: string[];
        parameters?: { name: string; in: string; schema: Record<string, unknown> }[];
        responses: object;
      }
    >
  >;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
};

describe("/openapi.json", () => {
  it("does not change when reviews are added, edited or removed (fixed examples)", () => {
    const full = input.dataset as ReviewsDataset;
    const [first, ...rest] = full.reviews;
    const added = {
      ...full,
      reviews: [{ ...(first as (typeof rest)[number]), id: "2026-12-01-new" }, ...rest],
    };
    const edited = { ...full, reviews: rest };
    const bytes = (d: ReviewsDataset) => JSON.stringify(buildOpenApi({ ...input, dataset: d }));
    expect(bytes(added)).toBe(JSON.stringify(doc));
    expect(bytes(edited)).toBe(JSON.stringify(doc));
    expect(bytes({ ...full, reviews: [] })).toBe(JSON.stringify(doc));
    // The catalogue is part of the contract: a new service is a new enum value.
    const services = [...input.dataset.business.services, { id: "new-service", name: "New", aliases: [] }];
    expect(bytes({ ...full, business: { ...full.business, services } })).not.toBe(JSON.stringify(doc));
  });

  it("is a valid OpenAPI 3.1 document, version 1.7.0", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.7.0");
    expect(API_VERSION).toBe("1.7.0");
  });

  it("says in the JSON Feed's description every member its items' `_review` extension carries", () => {
    const feed = doc.paths["/api/feed.json"]?.get as { description?: string } | undefined;
    const item = doc.components.schemas.JsonFeedItem?.properties?._review as { properties?: object } | undefined;
    const members = Object.keys(item?.properties ?? {});
    expect(members).toContain("log_index");
    expect(members.filter((m) => !new RegExp(`\\b${m}\\b`).test(feed?.description ?? ""))).toEqual([]);
  });

  it("names in the hub's description every difference from the WebSub Recommendation docs/websub.md lists", async () => {
    const docs = await readFile(new URL("../../../docs/websub.md", import.meta.url), "utf8");
    const section = docs.split("## Differences from the W3C WebSub Recommendation")[1]?.split("\n## ")[0] ?? "";
    const titles = [...section.matchAll(/^- \*\*(.+?)\*\*/gm)].map((m) =>
      (m[1] ?? "").replace(/`/g, "").replace(/[.:]+$/, ""),
    );
    expect(titles.length).toBeGreaterThan(1);
    const hub = doc.paths["/api/websub/hub"]?.post as { description?: string } | undefined;
    const description = (hub?.description ?? "").replace(/`/g, "").toLowerCase();
    expect(titles.filter((t) => !description.includes(t.toLowerCase()))).toEqual([]);
  });

  it("declares 414 and 431 on every operation: any URL is bounded, and over 16 KiB refused by the parser", () => {
    const operations = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.entries(item as Record<string, { responses?: Record<string, unknown> }>)
        .filter(([method]) => ["get", "post", "delete", "head"].includes(method))
        .map(([method, op]) => [`${method} ${p}`, op] as const),
    );
    expect(operations.length).toBeGreaterThan(5);
    for (const [name, op] of operations) {
      expect(op.responses?.["414"], name).toBeDefined();
      expect(op.responses?.["431"], name).toBeDefined();
    }
  });

  it("bounds an FAQ answer's evidence as the content check does: each review once, at most 100", () => {
    const schemas = (doc.components?.schemas ?? {}) as Record<string, { properties: Record<string, unknown> }>;
    const faq = schemas.InsightsFaqEntry;
    expect(faq?.properties.evidence).toMatchObject({ type: "array", maxItems: 100, uniqueItems: true });
  });

  it("describes every REST path, including the sidecar's", () => {
    for (const p of [
      "/reviews.json",
      "/insights.json",
      "/api/feed.json",
      "/feed.xml",
      "/openapi.json",
      "/api/reviews/search",
      "/api/reviews/since/{date}",
      "/api/websub/hub",
      "/mcp",
      "/healthz",
      "/livez",
    ]) {
      expect(doc.paths[p], p).toBeDefined();
    }
  });

  it("declares each search parameter on its own, typed from the zod schemas", () => {
    const op = doc.paths["/api/reviews/search"]?.get as unknown as {
      parameters: {
        name: string;
        in: string;
        required: boolean;
        description: string;
        schema: Record<string, unknown>;
      }[];
      "x-query-constraints": unknown;
      description: string;
    };
    const query = op.parameters.filter((p) => p.in === "query");
    expect(query.map((p) => p.name)).toEqual([...SEARCH_PARAMS]);
    for (const p of query) expect(p.required, p.name).toBe(false);
    const schema = { properties: Object.fromEntries(query.map((p) => [p.name, p.schema])) } as {
      properties: Record<string, Record<string, unknown>>;
    };
    const params = Object.keys(schema.properties);
    expect(op["x-query-constraints"]).toEqual({
      additionalProperties: false,
      dependentRequired: { sentiment: ["aspect"] },
    });
    expect(op.description).toContain("unknown or repeated parameter is refused");
    expect(query.find((p) => p.name === "sentiment")?.description).toContain("Requires `aspect`");
    expect(query.find((p) => p.name === "offset")?.description).toContain(String(Number.MAX_SAFE_INTEGER));
    expect(schema.properties.since).toMatchObject({ type: "string", format: "date" });
    expect(schema.properties.query).toMatchObject({ type: "string", maxLength: 200 });
    expect(schema.properties.rating).toMatchObject({ type: "integer", minimum: 1, maximum: 5 });
    expect(schema.properties.offset).toMatchObject({ type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
    expect(schema.properties.sentiment?.enum).toEqual(["positive", "neutral", "negative"]);
    // The content's ids, at build time.
    expect(schema.properties.aspect?.enum).toEqual(input.dataset.aspects.map((a) => a.id));
    expect(schema.properties.mentions_service?.enum).toEqual(input.dataset.business.services.map((s) => s.id));
    const technician = new RegExp(schema.properties.mentions_technician?.pattern as string, "u");
    for (const t of input.dataset.business.technicians) {
      for (const name of [t.id, t.name, ...t.aliases]) {
        expect(technician.test(name), name).toBe(true);
        expect(technician.test(` ${name.toUpperCase()}. `), name).toBe(true);
      }
    }
    expect(technician.test("nobody")).toBe(false);
    const since = doc.paths["/api/reviews/since/{date}"]?.get?.parameters ?? [];
    expect(since.filter((p) => p.in === "query")).toEqual([]);
    const review = doc.components.schemas.Review?.properties ?? {};
    expect(Object.keys(review)).toEqual([
      "id",
      "url",
      "date",
      "published_at",
      "rating",
      "author",
      "title",
      "text",
      "source",
      "verification",
      "technicians",
      "services",
      "service_areas",
      "response",
      "log_index",
      "log_nonce",
      "aspects",
    ]);
    expect(params).toContain("aspect");
    const aspect = doc.components.schemas.ReviewAspect as { required?: string[] } | undefined;
    expect(aspect?.required).toEqual(["id", "sentiment", "score", "source"]);
    expect(doc.components.schemas.Insights).toBeDefined();
  });

  it("names, tags and bounds every operation", () => {
    const ops = Object.values(doc.paths).flatMap((item) => Object.values(item));
    expect(ops).toHaveLength(13);
    for (const op of ops) {
      expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.tags?.length).toBe(1);
      expect(
        Object.keys(op.responses).some((code) => /^4\d\d$/.test(code)),
        op.operationId,
      ).toBe(true);
    }
    expect(new Set(ops.map((o) => o.operationId)).size).toBe(ops.length);
    // Only the offset parameter is bounded by 2^53-1: no response schema claims it.
    expect(JSON.stringify(doc.components)).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(JSON.stringify(doc)).not.toContain('"$id"');
    const search = doc.components.schemas.SearchResult?.properties as Record<string, object>;
    expect(search.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 100 });
    expect(search.count).toMatchObject({ type: "integer", minimum: 0, maximum: 100 });
    expect(search.total).toMatchObject({ type: "integer", minimum: 0 });
  });

  it("generates a client with named operations (openapi-typescript)", async () => {
    const ts = astToString(await openapiTS(structuredClone(doc) as unknown as Parameters<typeof openapiTS>[0]));
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(ts).toMatch(/export interface operations \{/);
    for (const id of ids) {
      expect(ts).toContain(`    ${id}: {`);
      expect(ts).toContain(`operations["${id}"]`);
    }
  });
});
