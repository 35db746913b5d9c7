import { Validator } from "@seriousme/openapi-schema-validator";
import openapiTS, { astToString } from "openapi-typescript";
import { describe, expect, it } from "vitest";
import { buildOpenApi } from "../../../src/api/openapi.ts";
import { SEARCH_PARAMS } from "../../../src/search/query.ts";
import { siteUrls } from "../../../src/urls.ts";

const doc = buildOpenApi(siteUrls("https://reviews.example.org")) as {
  openapi: string;
  info: { version: string };
  paths: Record<
    string,
    Record<string, { operationId?: string; tags?: string[]; parameters?: { name: string }[]; responses: object }>
  >;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
};

describe("/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document, version 1.1.0", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.1.0");
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

  it("takes the search parameters and record fields from the zod schemas", () => {
    const params = doc.paths["/api/reviews/search"]?.get?.parameters?.map((p) => p.name);
    expect(params).toEqual([...SEARCH_PARAMS]);
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
      "aspects",
    ]);
    expect(params).toContain("aspect");
    const aspect = doc.components.schemas.ReviewAspect as { required?: string[] } | undefined;
    expect(aspect?.required).toEqual(["id", "sentiment", "score", "source"]);
    expect(doc.components.schemas.Insights).toBeDefined();
  });

  it("names, tags and bounds every operation", () => {
    const ops = Object.values(doc.paths).flatMap((item) => Object.values(item));
    expect(ops).toHaveLength(11);
    for (const op of ops) {
      expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.tags?.length).toBe(1);
      expect(
        Object.keys(op.responses).some((code) => /^4\d\d$/.test(code)),
        op.operationId,
      ).toBe(true);
    }
    expect(new Set(ops.map((o) => o.operationId)).size).toBe(ops.length);
    expect(JSON.stringify(doc)).not.toContain(String(Number.MAX_SAFE_INTEGER));
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
