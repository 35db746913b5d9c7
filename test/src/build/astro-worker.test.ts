import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AstroBuildOptions, runAstroBuild } from "../../../src/build/astro-build.ts";
import { AstroBuildWorker, type AstroWorkerLimits } from "../../../src/build/astro-worker.ts";
import { strongEtag } from "../../../src/http-headers/manifest.ts";
import { readDistFiles } from "../../../src/io/dist-files.ts";
import { buildSite, freshLogEnv, HEADER_FILES, tempDistDir, undatedHeaders } from "../../helpers/build-site.ts";
import { isAlive } from "../../helpers/npm-process.ts";

/**
 * The long-lived build process of `npm start`: real Astro builds, compared byte for byte with a
 * fresh `astro build` of the same content, and the process's life cycle (reuse, replacement,
 * failure, abort) observed through its PID.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const REVIEW = "reviews/2025/2025-03-10-carlos-d.yaml";
let content: string;
const workers: AstroBuildWorker[] = [];

beforeAll(async () => {
  content = await mkdtemp(path.join(os.tmpdir(), "pr-worker-content-"));
  await cp(FIXTURE, content, { recursive: true });
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.close()));
  await rm(content, { recursive: true, force: true });
  await Promise.all(outside.map((d) => rm(d, { recursive: true, force: true })));
});

function newWorker(limits?: Partial<AstroWorkerLimits>, signal?: AbortSignal) {
  const worker = new AstroBuildWorker({ limits, signal });
  workers.push(worker);
  return worker;
}

const outside: string[] = [];
const DATA_FILES = ["/reviews.json", "/insights.json", "/api/feed.json", "/feed.xml"];

/**
 * As the tests' build helper builds, but in `worker`. `outsideProject`: into a folder outside the
 * project, as the bench and CI run npm start; Astro then prerenders from one fixed folder under
 * the project, where a warm process would meet its previous build's modules in Node's module cache
 * but for the per-build URLs astro-worker-main.ts gives them.
 */
async function workerBuild(
  worker: AstroBuildWorker,
  extra: Partial<AstroBuildOptions> = {},
  { outsideProject = false } = {},
) {
  const distDir = outsideProject
    ? await mkdtemp(path.join(os.tmpdir(), "pr-worker-dist-"))
    : await tempDistDir("pr-worker-dist-");
  if (outsideProject) outside.push(distDir);
  const result = await runAstroBuild({
    distDir,
    contentDir: content,
    env: {
      ...process.env,
      BASE_URL: "http://localhost:4321",
      HUB_URL: "http://127.0.0.1:9/api/websub/hub",
      ...(await freshLogEnv("http://localhost:4321")),
    },
    silent: true,
    lock: true,
    dropCache: true,
    output: "inherit",
    worker,
    ...extra,
  });
  return { ...result, distDir };
}

/**
 * A build's files by path; the header files without their Last-Modified, since each build dates
 * what it writes by its own time (src/http-headers/last-modified.ts).
 */
async function files(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of await readDistFiles(dir)) {
    if (f.path === "/_headers.json")
      out.set(f.path, JSON.stringify(undatedHeaders(JSON.parse(Buffer.from(f.bytes).toString()))));
    else if (!(HEADER_FILES as readonly string[]).includes(f.path))
      out.set(f.path, Buffer.from(f.bytes).toString("base64"));
  }
  return out;
}

async function editReview(text: string): Promise<void> {
  const file = path.join(content, REVIEW);
  const yaml = await readFile(file, "utf8");
  await writeFile(file, yaml.replace(/^text: .*$/m, `text: ${text}`));
}

describe("AstroBuildWorker", () => {
  it("builds again and again in one process, each build identical to a fresh astro build", {
    timeout: 1_500_000,
  }, async () => {
    const worker = newWorker();
    const edits = ["The first edit of this review.", "The second edit, about a quokka.", "A third, from outside."];
    for (const [round, text] of edits.entries()) {
      await editReview(text);
      // The last two land outside the project, where Astro reuses one bundle folder (see workerBuild).
      const warm = await workerBuild(worker, {}, { outsideProject: round > 0 });
      expect(warm.code).toBe(0);
      const freshDir = round > 0 ? await mkdtemp(path.join(os.tmpdir(), "pr-fresh-dist-")) : undefined;
      if (freshDir) outside.push(freshDir);
      const fresh = await buildSite(content, {}, freshDir);
      expect(fresh.code, fresh.stderr).toBe(0);
      const got = await files(warm.distDir);
      expect(got.size).toBeGreaterThan(10);
      const want = await files(fresh.distDir);
      if (round === 0) expect(got).toEqual(want);
      // Outside the project the data files must match a fresh build's; they carry the content.
      else for (const f of DATA_FILES) expect(got.get(f), f).toBe(want.get(f));
      expect(Buffer.from(got.get("/reviews.json") ?? "", "base64").toString()).toContain(text);
      if (round === 0) expect(worker.pid).toBeDefined();
    }
    const pid = worker.pid;
    // The dataset's notice comes before the build ends, naming the final reviews.json.
    const seen: { file: string; done: boolean }[] = [];
    let done = false;
    const third = await workerBuild(worker, {
      onNotice: (n) => {
        if (n.type === "dataset") seen.push({ file: n.file, done });
      },
    });
    done = true;
    expect(third.code).toBe(0);
    expect(seen).toEqual([{ file: path.join(third.distDir, "reviews.json"), done: false }]);
    const manifest = JSON.parse(await readFile(path.join(third.distDir, "_headers.json"), "utf8"));
    expect(manifest.files["/reviews.json"].etag).toBe(strongEtag(await readFile(seen[0]?.file as string)));
    // Still the same process: the second and third builds found Astro loaded.
    expect(worker.pid).toBe(pid);
  });

  it("replaces its process after maxBuilds builds, and when a build leaves it above the memory limit", {
    timeout: 1_500_000,
  }, async () => {
    for (const limits of [{ maxBuilds: 1 }, { maxRssBytes: 1 }]) {
      const worker = newWorker(limits);
      expect((await workerBuild(worker)).code).toBe(0);
      const first = await lastPid(worker);
      expect(worker.pid).toBeUndefined();
      expect(await exited(first)).toBe(true);
      expect((await workerBuild(worker)).code).toBe(0);
      expect(await lastPid(worker)).not.toBe(first);
    }
  });

  it("ends its process when a build fails, and builds the fixed content in a fresh one", {
    timeout: 1_500_000,
  }, async () => {
    const worker = newWorker();
    const file = path.join(content, REVIEW);
    const good = await readFile(file, "utf8");
    await writeFile(file, good.replace(/^rating: .*$/m, "rating: 9"));
    try {
      const failed = await workerBuild(worker);
      expect(failed.code).not.toBe(0);
      expect(worker.pid).toBeUndefined();
      // Why, as the build sent it over its channel: the problem that names the file and field.
      expect(failed.problems).toEqual([expect.stringMatching(new RegExp(`${path.basename(REVIEW)}.*rating`))]);
      // The content is checked before anything is bundled or written (src/integrations/content-first.ts).
      expect(await readdir(failed.distDir).catch(() => [])).toEqual([]);
      // A fresh astro build sends the same over its own channel.
      const fresh = await workerBuild(worker, { worker: undefined });
      expect(fresh.code).toBe(1);
      expect(fresh.problems).toEqual(failed.problems);
      expect(await readdir(fresh.distDir).catch(() => [])).toEqual([]);
    } finally {
      await writeFile(file, good);
    }
    expect((await workerBuild(worker)).code).toBe(0);
  });

  it("ends a build and its process when aborted, and builds nothing once closed", { timeout: 1_500_000 }, async () => {
    const stop = new AbortController();
    const worker = newWorker({}, stop.signal);
    const building = workerBuild(worker, { signal: stop.signal });
    let pid = worker.pid;
    while (pid === undefined) {
      await new Promise((r) => setTimeout(r, 10));
      pid = worker.pid;
    }
    expect(isAlive(pid)).toBe(true);
    // Aborting closes the worker too, as npm start's shutdown does.
    setTimeout(() => stop.abort(), 500);
    expect((await building).code).toBe(128);
    await worker.close();
    expect(isAlive(pid)).toBe(false);
    expect((await workerBuild(worker)).code).toBe(128);
    expect(worker.pid).toBeUndefined();
  });
});

/** The PID of the process that ran `worker`'s last build. */
async function lastPid(worker: AstroBuildWorker): Promise<number> {
  const pid = worker.lastBuildPid;
  if (pid === undefined) throw new Error("no build has run");
  return pid;
}

/** Polls until `pid` has exited (the worker ends a retired process with SIGTERM). */
async function exited(pid: number): Promise<boolean> {
  for (let i = 0; i < 200 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return !isAlive(pid);
}
