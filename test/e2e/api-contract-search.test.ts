import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { conforms as conformsTo, type Exchange, send, servedDocument } from "../helpers/openapi-contract.ts";
import {
  type Operation,
  type Parameter,
  queryArbitrary,
  type Schema,
  valueArbitrary,
} from "../helpers/openapi-oracle.ts";
import { rawRequest } from "../helpers/raw-http.ts";

/**
 * Search, since and the static files against the served `/openapi.json`, as a contract tester
 * sees them: requests generated from the document (hundreds per operation, valid and invalid),
 * each classified by the document alone, must get the status it predicts, and every answer must be
 * one it declares (test/helpers/openapi-contract.ts).
 */

const RUNS = 300;
const MAX_URL = 4096;

const served = servedDocument();
const conforms = (o: Operation, ex: Exchange, context: string) => conformsTo(served.oracle, o, ex, context);

const op = (p: string): Operation => served.doc.paths[p]?.get as Operation;
/**
 * The query an operation takes, as one JSON Schema object: each `in: query` parameter a property,
 * plus the cross-parameter rules the operation states in `x-query-constraints` (no other
 * parameter; `sentiment` only with `aspect`).
 */
const querySchema = (o: Operation): Schema => {
  const params = (o.parameters ?? []).filter((p) => p.in === "query");
  return {
    type: "object",
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
    required: params.filter((p) => p.required).map((p) => p.name),
    ...((o as Operation & { "x-query-constraints"?: Schema })["x-query-constraints"] ?? {}),
  };
};

/** Generated requests for one operation, checked against the document. */
async function exercise(
  o: Operation,
  request: fc.Arbitrary<{ url: string; valid: boolean }>,
): Promise<{ valid: number; invalid: number }> {
  const seen = { valid: 0, invalid: 0 };
  await fc.assert(
    fc.asyncProperty(request, async ({ url, valid }) => {
      const ex = await send(url);
      const expected = url.length - served.app.url.length > MAX_URL ? 414 : valid ? 200 : 400;
      expect(ex.status, `${url}: ${JSON.stringify(ex.body).slice(0, 300)}`).toBe(expected);
      conforms(o, ex, url);
      seen[valid ? "valid" : "invalid"]++;
    }),
    { numRuns: RUNS },
  );
  return seen;
}

describe("search, since and the files, against the document", () => {
  it("gives the 412 example as the server's own answer, but for the ETag it names", async () => {
    for (const p of ["/reviews.json", "/api/reviews/since/{date}", "/api/reviews/search"]) {
      const example = op(p).responses["412"]?.content?.["application/json"]?.example as { message: string };
      const ex = await send(`${served.app.url}${p.replace("{date}", "2026-01-01")}`, { "if-match": '"stale"' });
      expect(ex.status, p).toBe(412);
      const sent = (ex.body as { message: string }).message;
      const named = (s: string) => s.match(/"[^"]*"/g) ?? [];
      expect(named(sent), p).toHaveLength(1);
      expect(ex.body, p).toEqual({ ...example, message: example.message.replace(/"[^"]*"/, named(sent)[0] ?? "") });
    }
  });

  it("gives each operation's 400 example as the server's own answer to the request it describes", async () => {
    for (const p of ["/api/reviews/search", "/api/reviews/since/{date}"]) {
      const example = op(p).responses["400"]?.content?.["application/json"]?.example as {
        issues: { path: string; value: string }[];
      };
      // The request the example's issues name: the path parameter, then each query parameter.
      const date = example.issues.find((i) => i.path === "date")?.value ?? "";
      const query = new URLSearchParams(example.issues.filter((i) => i.path !== "date").map((i) => [i.path, i.value]));
      const ex = await send(`${served.app.url}${p.replace("{date}", encodeURIComponent(date))}?${query}`);
      expect(ex.status, p).toBe(400);
      expect(ex.body, p).toEqual(example);
    }
  });

  it("names in the ETag's description the suffix of every compressed variant the server sends", async () => {
    for (const [p, url] of [
      ["/reviews.json", "/reviews.json"],
      ["/api/reviews/search", "/api/reviews/search?limit=100"],
    ] as const) {
      const described = op(p).responses["200"]?.headers?.ETag?.description ?? "";
      for (const coding of ["br", "zstd", "gzip"]) {
        const res = await fetch(`${served.app.url}${url}`, { headers: { "accept-encoding": coding } });
        await res.body?.cancel();
        expect(res.headers.get("content-encoding"), `${url} ${coding}`).toBe(coding);
        const suffix = /-([a-z]+)"$/.exec(res.headers.get("etag") ?? "")?.[1];
        expect(described, `${url} ${coding}`).toContain(`\`-${suffix}\``);
      }
    }
  });

  it("GET /api/reviews/search: the server accepts exactly the query objects the document allows", async () => {
    const o = op("/api/reviews/search");
    const schema = querySchema(o);
    const request = queryArbitrary(schema).map((qs) => ({
      url: `${served.app.url}/api/reviews/search${qs ? `?${qs}` : ""}`,
      valid: served.oracle.errors(schema, served.oracle.queryObject(qs, schema)).length === 0,
    }));
    const seen = await exercise(o, request);
    // Both sides of the contract were exercised, not just refusals.
    expect(seen.valid).toBeGreaterThan(RUNS / 10);
    expect(seen.invalid).toBeGreaterThan(RUNS / 10);
  });

  it("GET /api/reviews/since/{date}: a real calendar date and no query parameters, as the document says", async () => {
    const o = op("/api/reviews/since/{date}");
    const dateParam = o.parameters?.find((p) => p.in === "path") as Parameter;
    const query = querySchema(o);
    // "." and ".." are path segments no URL can carry as a value; "" is another path.
    const date = valueArbitrary(dateParam.schema).filter((d) => d !== "" && d !== "." && d !== "..");
    const request = fc
      .tuple(date, fc.oneof({ weight: 4, arbitrary: fc.constant("") }, queryArbitrary(query)))
      .map(([d, qs]) => ({
        url: `${served.app.url}/api/reviews/since/${encodeURIComponent(d)}${qs ? `?${qs}` : ""}`,
        valid:
          served.oracle.errors(dateParam.schema, d).length === 0 &&
          served.oracle.errors(query, served.oracle.queryObject(qs, query)).length === 0,
      }));
    const seen = await exercise(o, request);
    expect(seen.valid).toBeGreaterThan(RUNS / 10);
    expect(seen.invalid).toBeGreaterThan(RUNS / 10);
  });

  it.each(["/reviews.json", "/insights.json", "/api/feed.json", "/feed.xml", "/openapi.json"])(
    "GET %s: 200 with the declared body and headers, 304 exactly when If-None-Match matches",
    async (p) => {
      const o = op(p);
      const first = await send(`${served.app.url}${p}`);
      conforms(o, first, p);
      const etag = first.headers.get("etag") as string;
      const inm = fc.oneof(
        fc.constantFrom(etag, `W/${etag}`, "*", `"other", ${etag}`),
        fc.string({ maxLength: 8 }).map((s) => `"${s.replaceAll('"', "")}"`),
      );
      await fc.assert(
        fc.asyncProperty(fc.option(inm), fc.string({ maxLength: 8 }), async (tag, junk) => {
          const headers: Record<string, string> = tag === null ? {} : { "If-None-Match": tag };
          const ex = await send(`${served.app.url}${p}?${new URLSearchParams({ junk })}`, headers);
          const matches =
            tag !== null && (tag === "*" || tag.split(",").some((t) => t.trim().replace(/^W\//, "") === etag));
          expect(ex.status).toBe(matches ? 304 : 200);
          conforms(o, ex, `${p} If-None-Match: ${tag}`);
        }),
        { numRuns: 100 },
      );
    },
  );

  it.each(["/healthz", "/livez"])("GET %s answers with its declared body", async (p) => {
    conforms(op(p), await send(`${served.app.url}${p}`), p);
  });

  // RFC 9110 §13.1.2: `If-None-Match: *` is false whenever there is a representation, so a GET
  // with it is a 304, on the probes too; a client generated from the document must expect it.
  // Sent raw, with no Cache-Control (fetch adds `no-cache`: conditional-requests.test.ts sends both).
  it.each(["/healthz", "/livez"])("GET %s answers If-None-Match: * with a declared 304", async (p) => {
    const host = new URL(served.app.url).host;
    const raw = await rawRequest(
      served.app.url,
      `GET ${p} HTTP/1.1\r\nHost: ${host}\r\nIf-None-Match: *\r\nConnection: close\r\n\r\n`,
    );
    expect(raw.status).toBe(304);
    const headers = new Headers(
      raw.head
        .split("\r\n")
        .slice(1)
        .map((l) => l.split(/:\s*/, 2) as [string, string]),
    );
    conforms(op(p), { status: raw.status, headers, body: raw.body, type: "" }, `${p} If-None-Match: *`);
  });

  it.each([
    ["/api/reviews/search", "/api/reviews/search?min_rating=4&limit=2"],
    ["/api/reviews/since/{date}", "/api/reviews/since/2025-01-01"],
  ])("GET %s: 304 with the declared headers when the ETag is sent back", async (p, url) => {
    const first = await send(`${served.app.url}${url}`);
    conforms(op(p), first, url);
    const again = await send(`${served.app.url}${url}`, { "If-None-Match": first.headers.get("etag") as string });
    expect(again.status).toBe(304);
    conforms(op(p), again, `${url} revalidated`);
  });
});
