import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApi } from "../../../src/api/openapi.ts";
import { type Harness, startHarness, TOPICS } from "../../helpers/hub-harness.ts";
import { openApiInput } from "../../helpers/openapi-input.ts";

/**
 * docs/api.md: "Declared headers are the ones sent, on every status", the quota headers among them.
 * The contract test's app mounts no hub, so the hub's answers are held to the document here.
 */
type Declared = Record<string, { headers?: Record<string, { required?: boolean }> }>;

let h: Harness;
let responses: Declared;

beforeAll(async () => {
  h = await startHarness({ env: { HUB_RATE_LIMIT_PER_MINUTE: "5" } });
  const doc = buildOpenApi(await openApiInput()) as {
    paths: Record<string, { post: { responses: Declared } }>;
  };
  responses = (doc.paths["/api/websub/hub"] as { post: { responses: Declared } }).post.responses;
});

afterAll(async () => {
  await h.close();
});

const QUOTA = ["RateLimit", "RateLimit-Policy"];

describe("the hub's answers and /openapi.json", () => {
  it("declare the quota headers on every status that sends them", async () => {
    const form = "application/x-www-form-urlencoded";
    const answers = [
      await h.post({ "hub.mode": "publish", "hub.url": TOPICS.atom }),
      await h.post({ "hub.mode": "publish" }),
      await h.post({}, form, `hub.mode=publish&pad=${"x".repeat(20_000)}`),
      await h.post({}, "text/plain", "hub.mode=publish"),
    ];
    while (answers.length < 6) answers.push(await h.post({ "hub.mode": "publish" }));
    expect(answers.map((r) => r.status)).toEqual([202, 400, 413, 415, 400, 429]);
    for (const res of answers) {
      const declared = responses[String(res.status)]?.headers ?? {};
      for (const name of QUOTA) {
        expect(res.headers.get(name), `${res.status} ${name} sent`).not.toBeNull();
        expect(declared[name]?.required, `${res.status} ${name} declared`).toBe(true);
      }
    }
  });
});
