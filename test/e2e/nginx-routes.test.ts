import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApi } from "../../src/api/openapi.ts";
import { freePort } from "../helpers/free-port.ts";
import { nginxUnavailable, type RunningNginx, startNginx } from "../helpers/nginx.ts";
import { openApiInput } from "../helpers/openapi-input.ts";

/**
 * deploy/nginx.conf sends every operation the build writes no file for to the sidecars: each path
 * of /openapi.json whose last segment names no file (search, since, /mcp, the hub, the health
 * checks). The upstream here only records what reached it; nginx-site-headers.test.ts covers the files.
 */

const NGINX = nginxUnavailable();
const doc = buildOpenApi(await openApiInput()) as { paths: Record<string, Record<string, unknown>> };
const ROUTES = Object.entries(doc.paths)
  .filter(([p]) => !/\.[a-z]+$/.test(p))
  .flatMap(([p, ops]) =>
    Object.keys(ops)
      .filter((m) => ["get", "post", "delete"].includes(m))
      .map((m) => [m.toUpperCase(), p.replace("{date}", "2026-01-01")] as const),
  );

describe.skipIf(NGINX)("deploy/nginx.conf and the sidecars' routes", () => {
  let dist: string;
  let nginx: RunningNginx;
  let upstream: Server;
  const reached: string[] = [];

  beforeAll(async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), "pr-nginx-routes-"));
    upstream = createServer((req, res) => {
      reached.push(`${req.method} ${req.url}`);
      req.resume();
      res.end("{}");
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const port = (upstream.address() as AddressInfo).port;
    nginx = await startNginx({ port: await freePort(), upstreams: [port, port], distDir: dist });
  });

  afterAll(async () => {
    await nginx?.stop();
    await new Promise((resolve) => upstream?.close(resolve));
    await rm(dist, { recursive: true, force: true });
  });

  it("has operations without a file to route", () => {
    expect(ROUTES.map(([, p]) => p)).toEqual(expect.arrayContaining(["/healthz", "/livez", "/mcp"]));
  });

  it.each(ROUTES)("passes %s %s to a sidecar", async (method, route) => {
    const res = await fetch(`${nginx.url}${route}`, { method, ...(method === "POST" ? { body: "x=1" } : {}) });
    await res.arrayBuffer();
    expect(reached).toContain(`${method} ${route}`);
  });
});
