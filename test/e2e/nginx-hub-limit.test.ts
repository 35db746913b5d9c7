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

  it("answers a client preferring JSON with the hub's JSON error, readable by a script from any origin", async () => {
    const res = await fetch(`${nginx.url}/api/websub/hub`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
        origin: "https://reader.example",
      },
      body: "hub.mode=publish&hub.url=x",
    });
    expect(res.status).toBe(429);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("vary")).toBe("Accept");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toContain("Retry-After");
    expect(await res.json()).toEqual({
      error: "rate_limited",
      message: "Too many hub requests: the limit is 30 per minute per client.",
    });
    // As the hub negotiates: JSON only where it is listed first and not refused.
    const typeFor = async (accept: string) =>
      (await fetch(`${nginx.url}/api/websub/hub`, { method: "POST", headers: { accept }, body: "" })).headers.get(
        "content-type",
      );
    expect(await typeFor("text/html, application/json;q=0.9")).toBe("application/json; charset=utf-8");
    expect(await typeFor("text/plain, application/json")).toBe("text/plain; charset=utf-8");
    expect(await typeFor("application/json;q=0, */*")).toBe("text/plain; charset=utf-8");
  });
});
