import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newTally, pollBuilds, soakMarker, soakPaths, soakReview } from "../../scripts/soak/build-poller.ts";
import { tempDistDir } from "../helpers/build-site.ts";
import { descendants, isAlive, killTree, type NpmProcess, portClosed, startNpm } from "../helpers/npm-process.ts";

/**
 * `npm start` under continuous load while the content changes 10 times: every response must be
 * 2xx/304 and carry the body of the build its ETag names. Before versioned builds, one rebuild
 * emptied dist/ in place and served 500s for about a second.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
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
  // npm start logs each save and rebuild on stdout: its tail says whether the save was seen and where the build stands.
  throw new Error(
    `${what}: not within ${timeoutMs} ms; server stderr:\n${npm?.stderr()}\nserver stdout (end):\n${npm?.stdout().slice(-6000)}`,
  );
}

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
}, 1_500_000);

afterAll(async () => {
  killTree(npm);
  await rm(content, { recursive: true, force: true });
  await rm(`${dist}-data`, { recursive: true, force: true });
});

describe("npm start rebuilds atomically", () => {
  it(`serves only 2xx/304, each body matching its ETag, while the content changes ${CHANGES} times`, {
    timeout: 1_800_000,
  }, async () => {
    const paths = await soakPaths(npm.url);
    expect(paths.length).toBeGreaterThan(3);
    const stop = { done: false };
    const tally = newTally();
    const pollers = Array.from({ length: 3 }, () => pollBuilds(npm.url, paths, stop, tally));
    try {
      for (let k = 1; k <= CHANGES; k++) {
        const { name, yaml } = soakReview(k);
        await writeFile(path.join(content, "reviews/2024", name), yaml);
        await until(async () => {
          const body = await (await fetch(`${npm.url}/api/reviews/search?query=${soakMarker(k)}`)).json();
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
    // One reload per change: no second load from the build hook's ping or the hub's publish. The
    // server logs "serving build" after the swap and after repointing DIST_DIR, so the last change
    // can be served a moment before its line is written: wait for the line, then for pruning (by
    // which time a stray second load would have been logged too), and only then count.
    const reloadLines = () =>
      npm
        .stdout()
        .split("\n")
        .filter((l) => l.includes('"msg":"serving build"'));
    await until(async () => reloadLines().length >= CHANGES, "last reload logged", 30_000);
    // Swapped-out builds are deleted once no request holds them: the current one stays, and the one
    // before it as the next build's starting point (sidecar/build/site-build.ts).
    await until(async () => (await readdir(`${dist}.builds`)).length === 2, "old builds pruned", 30_000);
    const story = npm
      .stdout()
      .split("\n")
      .filter((l) => /"msg":"(serving build|content changed|rebuild failed)/.test(l))
      .join("\n");
    expect(reloadLines(), `server log:\n${story}`).toHaveLength(CHANGES);
    expect(await readFile(path.join(dist, "reviews.json"), "utf8")).toContain(soakMarker(CHANGES));
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
