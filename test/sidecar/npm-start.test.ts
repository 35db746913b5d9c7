import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SearchParamsSchema } from "../../src/search/query.ts";
import { tempDistDir } from "../helpers/build-site.ts";
import { freePort } from "../helpers/free-port.ts";
import { initializeRequest } from "../helpers/mcp-app.ts";
import { descendants, isAlive } from "../helpers/npm-process.ts";
import { PROJECT_CONTENT } from "../helpers/project-content.ts";
import { type StartedProcess, startProcess } from "../helpers/start-process.ts";

const _ROOT = path.resolve(import.meta.dirname, "../..");
let server: StartedProcess;
let url: string;
let content: string;
let dist: string;
/** The port npm start was given; the test leaves BASE_URL unset so the origin must follow it. */
let port: number;
let origin: string;

/** Polls `check` until it returns true; the rebuild runs in another process, so there is no event to await. */
async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`condition not met within ${timeoutMs} ms; server output:\n${server.output()}`);
}

beforeAll(async () => {
  content = await mkdtemp(path.join(os.tmpdir(), "pr-start-content-"));
  dist = await tempDistDir("pr-start-dist-");
  await cp(PROJECT_CONTENT, content, { recursive: true });
  port = await freePort();
  origin = `http://localhost:${port}`;
  server = await startProcess({
    PORT: String(port),
    CONTENT_DIR: content,
    DIST_DIR: dist,
    DATA_DIR: `${dist}-data`,
    // What an editor sees at a terminal: the default level, plain lines (the tests read a pipe).
    LOG_FORMAT: "pretty",
    HUB_URL: "http://127.0.0.1:9/api/websub/hub",
  });
  url = server.url;
}, 540_000);

afterAll(async () => {
  await server?.stop();
  await rm(content, { recursive: true, force: true });
  await rm(dist, { recursive: true, force: true });
  await rm(`${dist}-data`, { recursive: true, force: true });
});

/** The resource URIs the MCP server lists, over plain JSON-RPC so the test does not depend on an SDK version. */
async function mcpResourceUris(): Promise<string[]> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const init = await fetch(`${url}/mcp`, {
    method: "POST",
    headers,
    body: JSON.stringify(initializeRequest()),
  });
  expect(init.status).toBe(200);
  const session = init.headers.get("mcp-session-id");
  if (session) headers["mcp-session-id"] = session;
  const list = await fetch(`${url}/mcp`, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "resources/list" }),
  });
  const body = await list.json();
  return body.result.resources.map((r: { uri: string }) => r.uri);
}

describe("npm start", () => {
  it("prints its addresses within the first lines, the search parameters included, and no request lines", async () => {
    const lines = server.output().split("\n");
    const at = lines.findIndex((l) => l.includes("listening on"));
    expect(at, server.output()).toBeGreaterThanOrEqual(0);
    // The whole list, down to its last address, within the first 25 lines.
    expect(lines.findIndex((l) => l.includes("/livez"))).toBeLessThan(25);
    const search = lines.find((l) => l.includes("/api/reviews/search")) ?? "";
    for (const name of Object.keys(SearchParamsSchema.shape)) expect(search).toContain(name);
    // Plain lines, not JSON.
    expect(lines.filter((l) => l.startsWith("{"))).toEqual([]);
    // The review log's generated key is announced once, at the terminal, not inside the quiet build.
    expect(server.output().split("a public deployment must set LOG_SIGNING_KEY")).toHaveLength(2);
    const before = server.output().length;
    for (let i = 0; i < 30; i++) await (await fetch(`${url}/${i % 2 ? "reviews.json" : ""}`)).arrayBuffer();
    await (await fetch(`${url}/healthz`)).arrayBuffer();
    expect(server.output().slice(before)).toBe("");
  });

  it("builds a missing dist/ and serves static files and query routes from one origin", async () => {
    expect((await fetch(`${url}/`)).status).toBe(200);
    expect((await fetch(`${url}/reviews.json`)).status).toBe(200);
    expect((await fetch(`${url}/api/feed.json`)).status).toBe(200);
    expect((await fetch(`${url}/api/reviews/search?rating=5&limit=1`)).status).toBe(200);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it("derives BASE_URL from PORT and builds for it: permalinks, feeds, next, MCP resources, hub topics", async () => {
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect(server.publicBase).toBe(origin);
    const dataset = await (await fetch(`${url}/reviews.json`)).json();
    expect(dataset.reviews[0].url).toMatch(new RegExp(`^${origin}/reviews/[a-z0-9-]+/$`));
    const feed = await (await fetch(`${url}/api/feed.json`)).json();
    expect(feed.feed_url).toBe(`${origin}/api/feed.json`);
    expect(feed.hubs).toEqual([{ type: "WebSub", url: `${origin}/api/websub/hub` }]);
    expect(await (await fetch(`${url}/feed.xml`)).text()).toContain(`${origin}/api/websub/hub`);
    const search = await (await fetch(`${url}/api/reviews/search?limit=1`)).json();
    expect(search.next).toBe(`${origin}/api/reviews/search?limit=1&offset=1`);

    // The hub accepts the topics at the port that is really serving.
    const ping = await fetch(`${url}/api/websub/hub`, {
      method: "POST",
      body: new URLSearchParams({ "hub.mode": "publish", "hub.url": `${origin}/feed.xml` }),
    });
    expect(ping.status).toBe(202);

    expect(await mcpResourceUris()).toEqual(
      expect.arrayContaining([`${origin}/reviews.json`, `${origin}/insights.json`]),
    );
  });

  it("rebuilds and reloads when a review file is saved", { timeout: 540_000 }, async () => {
    // A scaffold from review:new, not filled in yet: left out with a notice, never a failed rebuild.
    await writeFile(
      path.join(content, "reviews/2026/2026-11-22-draft-d.yaml"),
      'date: 2026-11-22\npublished_at: "2026-11-22T08:00:00Z"\nrating:\nauthor: Draft D.\ntext: ""\n',
    );
    await writeFile(
      path.join(content, "reviews/2026/2026-11-23-watcher-test.yaml"),
      [
        "date: 2026-11-23",
        'published_at: "2026-11-23T08:00:00Z"',
        "rating: 4",
        "author: Watcher T.",
        "text: The quokka poster in room three made me smile during my adjustment.",
        "source: {platform: direct}",
        "verification: {method: invoice, verified_on: 2026-11-23}",
        "",
      ].join("\n"),
    );
    await until(async () => {
      const body = await (await fetch(`${url}/api/reviews/search?query=quokka`)).json();
      return body.total === 1;
    }, 120_000);
    const feed = await (await fetch(`${url}/api/feed.json`)).json();
    expect(feed.items.some((i: { url: string }) => i.url.includes("2026-11-23-watcher-test"))).toBe(true);
    expect(server.output()).toContain(
      "2026-11-22-draft-d.yaml: not filled in yet (text is empty); left out until it is",
    );
    expect(server.output()).not.toContain("was not published");
    expect(server.output()).toMatch(/\d\d:\d\d:\d\d built in \d+\.\d s, \d+ reviews, serving\n/);
  });

  it("keeps serving the last good build when an edit breaks a review, names the file and line in the terminal and on every page, then serves the fix", {
    timeout: 750_000,
  }, async () => {
    const etag = async () => (await fetch(`${url}/reviews.json`, { method: "HEAD" })).headers.get("etag");
    const before = await etag();
    const file = path.join(content, "reviews/2026/2026-11-23-watcher-test.yaml");
    const good = await readFile(file, "utf8");
    await writeFile(file, good.replace("rating: 4", "rating: 6"));
    await until(async () => server.output().includes("was not published"), 120_000);
    const problem = "2026-11-23-watcher-test.yaml: line 3: rating: expected a whole number from 1 to 5, got 6";
    expect(server.output()).toContain(problem);
    expect(server.output()).toMatch(/error: the save was not published; still serving the last good build\n {2}\S+/);
    expect(await etag()).toBe(before);
    for (const page of ["/", "/reviews/2026/11/"]) {
      const html = await (await fetch(`${url}${page}`)).text();
      expect(html).toContain('class="npm-start-build-failed"');
      expect(html).toContain(problem);
    }
    // Only served that way: the build on disk, what a CDN would get, has no notice.
    expect(await readFile(path.join(dist, "index.html"), "utf8")).not.toContain("npm-start-build-failed");
    // The failed build ended the build process; the fix is built by a fresh one.
    await writeFile(file, good.replace("quokka", "wombat"));
    await until(async () => {
      const body = await (await fetch(`${url}/api/reviews/search?query=wombat`)).json();
      return body.total === 1;
    }, 120_000);
    expect(await etag()).not.toBe(before);
    expect(await (await fetch(`${url}/`)).text()).not.toContain("npm-start-build-failed");
  });

  it("refuses to drop a deleted review from the log, serving the last good build, then logs its withdrawal", {
    timeout: 750_000,
  }, async () => {
    const failures = () => server.output().split("was not published").length;
    const etag = async () => (await fetch(`${url}/reviews.json`, { method: "HEAD" })).headers.get("etag");
    const size = async () => Number((await (await fetch(`${url}/log/checkpoint`)).text()).split("\n")[1]);
    const before = { etag: await etag(), size: await size(), failures: failures() };
    const file = path.join(content, "reviews/2026/2026-11-23-watcher-test.yaml");
    const text = await readFile(file, "utf8");
    await rm(file);
    await until(async () => failures() > before.failures, 120_000);
    expect(server.output()).toContain(
      "2026-11-23-watcher-test.yaml: deleted, but review 2026-11-23-watcher-test is in the review log of a local preview",
    );
    expect(await etag()).toBe(before.etag);
    expect(await size()).toBe(before.size);
    await writeFile(file, `${text}withdrawn: {reason: author-request, date: 2026-11-24}\n`);
    await until(async () => (await size()) === before.size + 1, 120_000);
    const body = await (await fetch(`${url}/api/reviews/search?query=wombat`)).json();
    expect(body.total).toBe(0);
    const page = await (await fetch(`${url}/log/`)).text();
    expect(page).toContain("2026-11-24");
    expect(page).not.toContain("wombat");
  });

  it("stops gracefully on SIGTERM, leaving no build process behind", async () => {
    const pid = server.child.pid as number;
    const tree = descendants(pid);
    // The build worker, kept between builds.
    expect(tree.length).toBeGreaterThan(0);
    expect(await server.stop()).toBe(0);
    expect(tree.filter(isAlive)).toEqual([]);
  });
});
