import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHubRouter } from "../../../sidecar/hub/routes.ts";
import { createLogger } from "../../../sidecar/logger.ts";
import { createMcpRouter, type McpRouter } from "../../../sidecar/mcp/router.ts";
import { startApp, type TestApp } from "../../helpers/app-server.ts";
import { buildBeforeAll } from "../../helpers/build-site.ts";
import { type Harness, startHarness } from "../../helpers/hub-harness.ts";

/**
 * A CORS preflight names the methods the path takes, as its `Allow` does (RFC 9110 §10.2.1): the
 * public policy listed GET, HEAD, POST, DELETE and OPTIONS on every path, the hub's and the files' alike.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.test";
const built = buildBeforeAll(FIXTURE, { BASE_URL: BASE });
let harness: Harness;
let mcp: McpRouter | undefined;
let app: TestApp;

beforeAll(async () => {
  harness = await startHarness();
  app = await startApp(built.distDir, {
    env: { BASE_URL: BASE, RATE_LIMIT_PER_MINUTE: "1000000" },
    routers: ({ config, store, live }) => {
      const logger = createLogger("silent");
      mcp = createMcpRouter({ config, store, builds: live, logger });
      const hub = createHubRouter(harness.hub, { rateLimitPerMinute: 1000, logger, publish: async () => {} });
      return { mcp, hub };
    },
  });
}, 600_000);

afterAll(async () => {
  await mcp?.close();
  await app?.close();
  await harness?.close();
});

const methods = (header: string | null) => new Set((header ?? "").split(/,\s*/).filter(Boolean));

describe("a CORS preflight", () => {
  it.each([
    ["/reviews.json", "GET"],
    ["/feed.xml", "GET"],
    ["/", "GET"],
    ["/openapi.json", "GET"],
    ["/api/reviews/search", "GET"],
    ["/api/reviews/since/2026-01-01", "GET"],
    ["/healthz", "GET"],
    ["/api/websub/hub", "POST"],
    ["/mcp", "POST"],
  ])("on %s allows the methods its Allow lists, no more", async (p, method) => {
    const plain = await fetch(`${app.url}${p}`, { method: "OPTIONS" });
    expect(plain.status).toBe(204);
    const allow = methods(plain.headers.get("allow"));
    expect(allow.has(method)).toBe(true);
    const preflight = await fetch(`${app.url}${p}`, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": method },
    });
    expect(preflight.status).toBe(204);
    expect(methods(preflight.headers.get("access-control-allow-methods"))).toEqual(allow);
  });
});
