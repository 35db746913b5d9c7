import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { strongEtag } from "../src/lib/headers.ts";
import { tempDistDir } from "./helpers/build-site.ts";
import { descendants, isAlive, type NpmProcess, portClosed, startNpm } from "./helpers/npm-process.ts";

/**
 * `npm start` under continuous load while the content changes 10 times: every response must be
 * 2xx/304 and carry the body of the build its ETag names. Before versioned builds, one rebuild
 * emptied dist/ in place and served 500s for about a second.
 */

const FIXTURE = path.resolve(import.meta.dirname, "fixtures/basic-content");
const CHANGES = 10;
let content: string;
let dist: string;
let npm: NpmProcess;

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 300_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms; server stderr:\n${npm?.stderr()}`);
}

const soakReview = (k: number) =>
  [
    `date: 2024-12-${String(10 + k).padStart(2, "0")}`,
    `published_at: "2024-12-${String(10 + k).padStart(2, "0")}T08:00:00Z"`,
    "rating: 4",
    `author: Soak ${k}.`,
    `text: Visit number ${k} went smoothly; the soakmarker${k} sticker was still on the door.`,
    "source: {platform: direct}",
    `verification: {method: invoice, verified_on: 2024-12-${String(10 + k).padStart(2, "0")}}`,
    "",
  ].join("\n");

beforeAll(async () => {
  content = await mkdtemp(path.join(os.tmpdir(), "pr-atomic-content-"));
  dist = await tempDistDir("pr-atomic-dist-");
  await cp(FIXTURE, content, { recursive: true });
  npm = await startNpm(["start"], {
    CONTENT_DIR: content,
    DIST_DIR: dist,
    DATA_DIR: `${dist}-data`,
    LOG_LEVEL: "info",
    // The pollers are one client sending thousands of requests a minute.
    RATE_LIMIT_PER_MINUTE: "10000000",
  });
}, 600_000);

afterAll(async () => {
  if (npm && isAlive(npm.pid)) {
    npm.child.kill("SIGKILL");
    for (const pid of descendants(npm.pid)) process.kill(pid, "SIGKILL");
  }
  await rm(content, { recursive: true, force: true });
  await rm(`${dist}-data`, { recursive: true, force: true });
});

interface Tally {
  responses: number;
  notModified: number;
  /** Every failure counted; the first few kept for the message. */
  failures: number;
  bad: string[];
}

function fail(tally: Tally, what: string): void {
  tally.failures++;
  if (tally.bad.length < 20) tally.bad.push(what);
}

/** Fetches `paths` round-robin until `stop`, checking status, ETag against body, and dataset coherence. */
async function poll(paths: string[], stop: { done: boolean }, tally: Tally): Promise<void> {
  const lastTag = new Map<string, string>();
  for (let i = 0; !stop.done; i++) {
    const p = paths[i % paths.length] as string;
    // Every third request is conditional, so 304s are part of the mix.
    const tag = i % 3 === 0 ? lastTag.get(p) : undefined;
    const res = await fetch(`${npm.url}${p}`, {
      headers: { "accept-encoding": "identity", ...(tag ? { "if-none-match": tag } : {}) },
    });
    const body = Buffer.from(await res.arrayBuffer());
    tally.responses++;
    const etag = res.headers.get("etag") ?? "";
    if (res.status === 304) {
      tally.notModified++;
      if (etag !== tag) fail(tally, `${p}: 304 with ETag ${etag}, asked ${tag}`);
      continue;
    }
    if (res.status !== 200) {
      fail(tally, `${p}: ${res.status}`);
      continue;
    }
    if (etag !== strongEtag(body)) fail(tally, `${p}: ETag ${etag} is not the hash of the body`);
    lastTag.set(p, etag);
    if (p === "/reviews.json") {
      // Each change adds soak review k; a body from one build holds exactly soak reviews 1..m.
      const ks = (JSON.parse(body.toString()) as { reviews: { text: string }[] }).reviews
        .map((r) => /soakmarker(\d+)/.exec(r.text)?.[1])
        .filter((k) => k !== undefined)
        .map(Number)
        .sort((a, b) => a - b);
      if (ks.some((k, j) => k !== j + 1)) fail(tally, `/reviews.json mixes builds: soak reviews ${ks.join(",")}`);
    }
  }
}

describe("npm start rebuilds atomically", () => {
  it(`serves only 2xx/304, each body matching its ETag, while the content changes ${CHANGES} times`, {
    timeout: 1_800_000,
  }, async () => {
    const manifest = JSON.parse(await readFile(path.join(dist, "_headers.json"), "utf8")) as {
      files: Record<string, unknown>;
    };
    const months = Object.keys(manifest.files)
      .filter((f) => /^\/reviews\/\d{4}\/\d{2}\/index\.html$/.test(f))
      .map((f) => f.replace(/index\.html$/, ""));
    expect(months.length).toBeGreaterThan(0);
    const paths = ["/", "/feed.xml", ...months, "/reviews.json"];
    const stop = { done: false };
    const tally: Tally = { responses: 0, notModified: 0, failures: 0, bad: [] };
    const pollers = Array.from({ length: 3 }, () => poll(paths, stop, tally));
    try {
      for (let k = 1; k <= CHANGES; k++) {
        await writeFile(path.join(content, "reviews/2024", `2024-12-${10 + k}-soak-${k}.yaml`), soakReview(k));
        await until(async () => {
          const body = await (await fetch(`${npm.url}/api/reviews/search?query=soakmarker${k}`)).json();
          return body.total === 1;
        }, `change ${k} served`);
      }
    } finally {
      stop.done = true;
      await Promise.all(pollers);
    }
    process.stdout.write(
      `atomic rebuilds: ${tally.responses} responses (${tally.notModified} 304) during ${CHANGES} rebuilds, ${tally.failures} failures\n`,
    );
    expect(tally.bad).toEqual([]);
    expect(tally.failures).toBe(0);
    expect(tally.responses).toBeGreaterThan(CHANGES * paths.length);
    expect(tally.notModified).toBeGreaterThan(0);
    // One reload per change: no second load from the build hook's ping or the hub's publish.
    const reloads = npm
      .stdout()
      .split("\n")
      .filter((l) => l.includes('"msg":"serving build"'));
    expect(reloads).toHaveLength(CHANGES);
    // Swapped-out builds are deleted once no request holds them: only the current one stays.
    await until(async () => (await readdir(`${dist}.builds`)).length === 1, "old builds pruned", 30_000);
    expect(await readFile(path.join(dist, "reviews.json"), "utf8")).toContain(`soakmarker${CHANGES}`);
  });

  it("stops when the npm process receives SIGTERM, leaving no process and no listener behind", async () => {
    const tree = descendants(npm.pid);
    expect(tree.length).toBeGreaterThan(0);
    process.kill(npm.pid, "SIGTERM");
    expect(await npm.exited).toBe(0);
    expect(await portClosed(npm.url)).toBe(true);
    expect(tree.filter(isAlive)).toEqual([]);
  });
});
