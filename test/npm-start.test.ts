import { type ChildProcess, spawn } from "node:child_process";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDistDir } from "./helpers/build-site.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
let child: ChildProcess;
let url: string;
let content: string;
let dist: string;
let stderr = "";

/** Polls `check` until it returns true; the rebuild runs in another process, so there is no event to await. */
async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`condition not met within ${timeoutMs} ms; server stderr:\n${stderr}`);
}

beforeAll(async () => {
  content = await mkdtemp(path.join(os.tmpdir(), "pr-start-content-"));
  dist = await tempDistDir("pr-start-dist-");
  await cp(path.join(ROOT, "content"), content, { recursive: true });
  child = spawn(path.join(ROOT, "node_modules/.bin/node"), ["sidecar/start.ts"], {
    cwd: ROOT,
    env: {
      PATH: `${path.join(ROOT, "node_modules/.bin")}:${process.env.PATH}`,
      HOME: process.env.HOME ?? "",
      PORT: "0",
      CONTENT_DIR: content,
      DIST_DIR: dist,
      DATA_DIR: `${dist}-data`,
      LOG_LEVEL: "warn",
      HUB_URL: "http://127.0.0.1:9/api/websub/hub",
    },
  });
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.on("exit", (code) => reject(new Error(`npm start exited with ${code}: ${stderr}`)));
  });
}, 180_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
  await rm(content, { recursive: true, force: true });
  await rm(dist, { recursive: true, force: true });
  await rm(`${dist}-data`, { recursive: true, force: true });
});

describe("npm start", () => {
  it("builds a missing dist/ and serves static files and query routes from one origin", async () => {
    expect((await fetch(`${url}/`)).status).toBe(200);
    expect((await fetch(`${url}/reviews.json`)).status).toBe(200);
    expect((await fetch(`${url}/api/feed.json`)).status).toBe(200);
    expect((await fetch(`${url}/api/reviews/search?rating=5&limit=1`)).status).toBe(200);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it("rebuilds and reloads when a review file is saved", { timeout: 180_000 }, async () => {
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
  });

  it("stops gracefully on SIGTERM", async () => {
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
