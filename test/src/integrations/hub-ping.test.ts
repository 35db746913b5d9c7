import { createHmac } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { MANIFEST_FILE } from "../../../src/http-headers/manifest.ts";
import { hubPing, pingHub } from "../../../src/integrations/hub-ping.ts";
import { buildSite, tempDistDir } from "../../helpers/build-site.ts";
import { isDelivery, type Subscriber, startSubscriber } from "../../helpers/https-subscriber.ts";
import { BASE_URL, type Harness, startHarness, TOPICS } from "../../helpers/hub-harness.ts";

const tls = inject("testTls");
const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");

function hookLogger() {
  const lines: { level: string; message: string }[] = [];
  const log = (level: string) => (message: string) => void lines.push({ level, message });
  return { lines, logger: { info: log("info"), warn: log("warn"), error: log("error"), debug: log("debug") } };
}

async function runHook(opts: Parameters<typeof hubPing>[0]) {
  const { lines, logger } = hookLogger();
  const hook = hubPing(opts).hooks["astro:build:done"];
  // Only `logger` is read by this hook; the rest of Astro's params are irrelevant here.
  await hook?.({ logger } as unknown as Parameters<NonNullable<typeof hook>>[0]);
  return lines;
}

describe("hub ping after a build", () => {
  let h: Harness;
  let sub: Subscriber;
  let built: Awaited<ReturnType<typeof buildSite>>;

  beforeAll(async () => {
    // Inside the project, so this build's prerender chunks are its own (see tempDistDir).
    h = await startHarness({ distDir: await tempDistDir("pr-hub-dist-") });
    sub = await startSubscriber(tls.trusted);
    // Subscribed before any build exists: every topic is owed its first content.
    for (const [name, topic] of Object.entries(TOPICS)) {
      await h.post({
        "hub.mode": "subscribe",
        "hub.topic": topic,
        "hub.callback": sub.callback(`/${name}`),
        "hub.secret": name,
      });
    }
    await h.hub.idle();
    built = await buildSite(FIXTURE, { BASE_URL, HUB_URL: h.endpoint }, h.distDir);
    await h.hub.idle();
  });

  afterAll(async () => {
    await h?.close();
    await sub?.close();
    if (h) await rm(h.distDir, { recursive: true, force: true });
  });

  it("notifies every subscriber of the built content with the served Content-Type", async () => {
    expect(built.code, built.stderr).toBe(0);
    const manifest = JSON.parse(await readFile(path.join(h.distDir, MANIFEST_FILE), "utf8"));
    const expected = [
      ["/atom", "/feed.xml"],
      ["/json", "/api/feed.json"],
      ["/reviews", "/reviews.json"],
    ];
    for (const [callbackPath, file] of expected) {
      const [delivery, ...more] = sub.requests.filter((r) => isDelivery(r) && r.rawUrl === callbackPath);
      expect(more).toEqual([]);
      const body = await readFile(path.join(h.distDir, file as string));
      expect(delivery?.body.equals(body)).toBe(true);
      expect(delivery?.headers["content-type"]).toBe(manifest.files[file as string].content_type);
      const secret = (callbackPath as string).slice(1);
      expect(delivery?.headers["x-hub-signature"]).toBe(
        `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`,
      );
    }
  });

  it("notifies nobody when the same content is published again", async () => {
    const before = sub.requests.length;
    const outcome = await pingHub(h.endpoint, Object.values(TOPICS));
    expect(outcome).toEqual({ ok: true, status: 202, attempts: 1 });
    await h.hub.idle();
    expect(sub.requests.length).toBe(before);
  });

  it("warns with the hub's reason when the hub refuses the ping", async () => {
    const lines = await runHook({ hubUrl: h.endpoint, baseUrl: "https://elsewhere.example.test" });
    expect(lines).toEqual([
      {
        level: "warn",
        message: `could not notify the WebSub hub at ${h.endpoint}: the hub answered 400: hub.url: must be one of ${TOPICS.atom}, ${TOPICS.json}, ${TOPICS.reviews}, got "https://elsewhere.example.test/feed.xml"; the build is fine`,
      },
    ]);
  });
});

describe("an unreachable hub", () => {
  it("warns and lets the build succeed when nothing listens", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const lines = await runHook({ hubUrl: `http://127.0.0.1:${port}/api/websub/hub`, baseUrl: BASE_URL });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe("warn");
    expect(lines[0]?.message).toMatch(/^could not notify the WebSub hub at .*ECONNREFUSED.*; the build is fine$/);
  });

  it("gives up after the timeout when the hub never answers", async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const lines = await runHook({ hubUrl: `http://127.0.0.1:${port}/hub`, baseUrl: BASE_URL, timeoutMs: 200 });
      expect(lines[0]?.level).toBe("warn");
      expect(lines[0]?.message).toMatch(/timeout|aborted/i);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe("a hub that cannot take the ping yet", () => {
  /** A hub answering each POST with the next status in `statuses` (the last one repeats). */
  async function hubAnswering(statuses: number[], retryAfter?: string) {
    const seen: number[] = [];
    const server = createServer((req, res) => {
      req.resume();
      const status = statuses[Math.min(seen.length, statuses.length - 1)] as number;
      seen.push(status);
      if (retryAfter) res.setHeader("retry-after", retryAfter);
      res
        .writeHead(status, { "content-type": "text/plain" })
        .end(status === 202 ? "Accepted" : "the database is unreachable");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/websub/hub`;
    return { url, seen, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  it("tries a 503 again with a growing wait, says so each time, and reports the success", async () => {
    const hub = await hubAnswering([503, 503, 202]);
    const waits: number[] = [];
    try {
      const lines = await runHook({
        hubUrl: hub.url,
        baseUrl: BASE_URL,
        retryForMs: 60_000,
        sleep: async (ms) => void waits.push(ms),
      });
      expect(hub.seen).toEqual([503, 503, 202]);
      expect(waits).toEqual([1_000, 2_000]);
      expect(lines.map((l) => l.level)).toEqual(["warn", "warn", "info"]);
      expect(lines[0]?.message).toBe(
        `the WebSub hub at ${hub.url} cannot take the ping yet (the hub answered 503: the database is unreachable); trying again in 1 s (for up to 60 s in all)`,
      );
      expect(lines[2]?.message).toBe(`notified the WebSub hub at ${hub.url} (202)`);
    } finally {
      await hub.close();
    }
  });

  it("waits the hub's Retry-After, and gives up once the bound is spent, saying how often it tried", async () => {
    const hub = await hubAnswering([503], "4");
    const waits: number[] = [];
    try {
      const lines = await runHook({
        hubUrl: hub.url,
        baseUrl: BASE_URL,
        retryForMs: 10_000,
        sleep: async (ms) => void waits.push(ms),
      });
      // 4 s as asked, then 4 s again (the backoff, 2 s, is shorter), then the 2 s left of the bound.
      expect(waits).toEqual([4_000, 4_000, 2_000]);
      expect(hub.seen).toHaveLength(4);
      expect(lines.at(-1)).toEqual({
        level: "warn",
        message: `could not notify the WebSub hub at ${hub.url} after 4 attempts: the hub answered 503: the database is unreachable; the build is fine`,
      });
    } finally {
      await hub.close();
    }
  });

  it("does not try a refusal again", async () => {
    const hub = await hubAnswering([400]);
    try {
      const outcome = await pingHub(hub.url, [`${BASE_URL}/feed.xml`], { retryForMs: 60_000, sleep: async () => {} });
      expect(outcome).toMatchObject({ ok: false, attempts: 1 });
      expect(hub.seen).toEqual([400]);
    } finally {
      await hub.close();
    }
  });
});
