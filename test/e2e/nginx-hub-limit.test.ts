import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECURITY_HEADERS } from "../../src/http-headers/security.ts";
import { freePort } from "../helpers/free-port.ts";
import { nginxUnavailable, type RunningNginx, startNginx } from "../helpers/nginx.ts";

/**
 * deploy/nginx.conf's per-client limit on the hub (30 requests a minute, a burst of 20) answers
 * past it as the hub's own limit does (docs/websub.md): 429 with Retry-After and a plain-text
 * reason (WebSub §5.1.2), not nginx's HTML page, which tells a publisher nothing of when to retry.
 */

const NGINX = nginxUnavailable();

describe.skipIf(NGINX)("deploy/nginx.conf's limit on the hub", () => {
  let dist: string;
  let nginx: RunningNginx;
  let upstream: Server;
  let reached = 0;

  beforeAll(async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), "pr-nginx-hub-"));
    upstream = createServer((req, res) => {
      reached++;
      req.resume();
      res.writeHead(202).end();
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const port = (upstream.address() as AddressInfo).port;
    nginx = await startNginx({ port: await freePort(), upstreams: [port, port], distDir: dist, hubLimit: true });
  });

  afterAll(async () => {
    await nginx?.stop();
    await new Promise((resolve) => upstream?.close(resolve));
    await rm(dist, { recursive: true, force: true });
  });

  it("answers past the limit with 429, Retry-After and a plain-text reason, reaching no sidecar", async () => {
    const answers: Response[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await fetch(`${nginx.url}/api/websub/hub`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "hub.mode=publish&hub.url=x",
      });
      answers.push(res);
      if (res.status === 429) break;
    }
    const limited = answers.at(-1) as Response;
    expect(limited.status).toBe(429);
    expect(reached).toBe(answers.length - 1);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(limited.headers.get(name), name).toBe(value);
    expect(await limited.text()).toBe("Too many hub requests: the limit is 30 per minute per client.\n");
  });
});
