import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main as check } from "../../scripts/check-content.ts";
import { main as logVerify } from "../../scripts/log-verify.ts";
import type { ReviewsDataset } from "../../src/content/records.ts";
import { readDistFiles } from "../../src/io/dist-files.ts";
import { decodeBundle, decodeEntry, loggedReview } from "../../src/log/entries.ts";
import { startApp, type TestApp } from "../helpers/app-server.ts";
import { buildSite, testLogKey } from "../helpers/build-site.ts";

/**
 * The review log end to end: real builds of a content folder that an editor changes between
 * them, one LOG_DIR kept across the builds (as npm start and a CDN deployment keep it), each
 * build served over HTTP and checked by `npm run log:verify` with a state file, the way an outside
 * monitor would. Then a log rewritten under the same key, which the monitor must reject.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const BASE = "http://localhost:4321";
const KEY = testLogKey(BASE);
const MIKE = "2024-11-21-mike";
const CARLOS = "2025-03-10-carlos-d";
const NOW = new Date("2026-11-27T00:00:00Z");

const temp: string[] = [];
let content: string;
let logDir: string;
let state: string;
afterAll(() => Promise.all(temp.map((d) => rm(d, { recursive: true, force: true }))));

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  temp.push(dir);
  return dir;
}

beforeAll(async () => {
  content = await tempDir("pr-log-content-");
  await cp(FIXTURE, content, { recursive: true });
  logDir = await tempDir("pr-log-state-");
  state = path.join(await tempDir("pr-log-monitor-"), "state.json");
});

const file = (id: string) => path.join(content, "reviews", id.slice(0, 4), `${id}.yaml`);

async function build(dir = content, log = logDir) {
  const result = await buildSite(dir, { BASE_URL: BASE, LOG_DIR: log });
  temp.push(result.distDir);
  return result;
}

/** Serves `dist` over HTTP and runs the monitor against it. */
async function verify(dist: string): Promise<{ code: number; out: string; err: string; app: TestApp }> {
  const app = await startApp(dist);
  const out: string[] = [];
  const err: string[] = [];
  const code = await logVerify({
    argv: ["--url", `${app.url}/log`, "--key", KEY.vkey, "--state", state],
    now: NOW,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out: out.join("\n"), err: err.join("\n"), app };
}

/** Every entry of the served log, parsed. */
async function entries(app: TestApp): Promise<ReturnType<typeof decodeEntry>[]> {
  const size = Number((await (await fetch(`${app.url}/log/checkpoint`)).text()).split("\n")[1]);
  const out: ReturnType<typeof decodeEntry>[] = [];
  for (let n = 0; n * 256 < size; n++) {
    const width = Math.min(256, size - n * 256);
    const p = `${String(n).padStart(3, "0")}${width < 256 ? `.p/${width}` : ""}`;
    const bytes = new Uint8Array(await (await fetch(`${app.url}/log/tile/entries/${p}`)).arrayBuffer());
    out.push(...decodeBundle(bytes).map(decodeEntry));
  }
  return out;
}

async function dataset(app: TestApp): Promise<ReviewsDataset> {
  return (await fetch(`${app.url}/reviews.json`)).json() as Promise<ReviewsDataset>;
}

describe("the review log", { timeout: 1_500_000 }, () => {
  let first: string;

  it("a first build logs every review, serves the log with the spec's headers, and verifies", async () => {
    const b = await build();
    expect(b.code, b.stderr).toBe(0);
    first = b.distDir;
    const v = await verify(first);
    try {
      expect(v.err).toBe("");
      expect(v.code).toBe(0);
      expect(v.out).toMatch(/^verified localhost:4321\/log: 8 entries, root /);
      const cp = await fetch(`${v.app.url}/log/checkpoint`);
      expect(cp.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(cp.headers.get("cache-control")).toBe("public, max-age=5");
      expect((await cp.text()).split("\n").slice(0, 2)).toEqual(["localhost:4321/log", "8"]);
      const tile = await fetch(`${v.app.url}/log/tile/0/000.p/8`);
      expect(tile.headers.get("content-type")).toBe("application/octet-stream");
      expect((await tile.arrayBuffer()).byteLength).toBe(8 * 32);
      // Entry bundles are compressed at the HTTP layer, as tlog-tiles asks.
      const bundle = await fetch(`${v.app.url}/log/tile/entries/000.p/8`, { headers: { "accept-encoding": "gzip" } });
      expect(bundle.headers.get("content-encoding")).toBe("gzip");
      expect(bundle.headers.get("content-type")).toBe("application/octet-stream");
      expect(await (await fetch(`${v.app.url}/log/key`)).text()).toBe(`${KEY.vkey}\n`);
      // Every record carries the index of its entry, and that entry holds exactly its fields.
      const logged = await entries(v.app);
      for (const r of (await dataset(v.app)).reviews) {
        const e = logged[r.log_index];
        expect(e?.event).toBe("published");
        expect(e && "review" in e ? e.review : undefined).toEqual(loggedReview(r));
      }
    } finally {
      await v.app.close();
    }
  });

  it("an edit appends an amended entry, and the new log is proven to extend the one seen before", async () => {
    const text = await readFile(file(CARLOS), "utf8");
    await writeFile(file(CARLOS), text.replace("Sprained my ankle", "Twisted my ankle"));
    const b = await build();
    expect(b.code, b.stderr).toBe(0);
    const v = await verify(b.distDir);
    try {
      expect(v.code, v.err).toBe(0);
      expect(v.out).toMatch(/9 entries, .* it extends the checkpoint of size 8 seen on 2026-11-27$/);
      const record = (await dataset(v.app)).reviews.find((r) => r.id === CARLOS);
      expect(record?.log_index).toBe(8);
      const logged = await entries(v.app);
      expect(logged[8]).toMatchObject({ event: "amended", id: CARLOS });
      // The earlier version stays in the log.
      expect(JSON.stringify(logged.slice(0, 8))).toContain("Sprained my ankle");
    } finally {
      await v.app.close();
    }
  });

  it("deleting a logged review's file fails the build and npm run check, naming the file, and changes nothing", async () => {
    const before = await readFile(path.join(logDir, "checkpoint"), "utf8");
    const text = await readFile(file(MIKE), "utf8");
    await rm(file(MIKE));
    try {
      const b = await build();
      expect(b.code).toBe(1);
      const message = `${file(MIKE)}: deleted, but review ${MIKE} is in the public review log`;
      expect(b.stdout + b.stderr).toContain(message);
      expect(b.stdout + b.stderr).toContain("mark it withdrawn");
      const lines: string[] = [];
      const code = await check({
        env: { CONTENT_DIR: content, LOG_DIR: logDir, BASE_URL: BASE },
        now: NOW,
        out: (l) => lines.push(l),
        err: (l) => lines.push(l),
      });
      expect(code).toBe(1);
      expect(lines.join("\n")).toContain(message);
      expect(await readFile(path.join(logDir, "checkpoint"), "utf8")).toBe(before);
    } finally {
      await writeFile(file(MIKE), text);
    }
  });

  it("a withdrawal takes the review off the list and is logged with its reason and date, never its text", async () => {
    await writeFile(
      file(MIKE),
      `${await readFile(file(MIKE), "utf8")}withdrawn:\n  reason: author-request\n  date: 2026-11-20\n`,
    );
    const b = await build();
    expect(b.code, b.stderr).toBe(0);
    const v = await verify(b.distDir);
    try {
      expect(v.code, v.err).toBe(0);
      expect((await dataset(v.app)).reviews.map((r) => r.id)).not.toContain(MIKE);
      expect((await entries(v.app))[9]).toEqual({
        event: "withdrawn",
        id: MIKE,
        reason: "author-request",
        date: "2026-11-20",
      });
      const page = await (await fetch(`${v.app.url}/log/`)).text();
      expect(page).toContain("2026-11-20");
      expect(page).toContain("author-request");
      expect(page).not.toContain("fifty minutes");
      const home = await (await fetch(`${v.app.url}/`)).text();
      expect(home).toContain("8 reviews have been published here; 1 withdrawn (1 at the author&#39;s request)");
      expect(home).toContain(`href="${BASE}/log/"`);
    } finally {
      await v.app.close();
    }
    // The same content on the same state gives the same bytes.
    const again = await build();
    expect(again.code).toBe(0);
    const a = await readDistFiles(b.distDir);
    const c = await readDistFiles(again.distDir);
    expect(c.map((f) => f.path)).toEqual(a.map((f) => f.path));
    for (const [i, f] of a.entries())
      expect(Buffer.from(c[i]?.bytes ?? []).equals(Buffer.from(f.bytes)), f.path).toBe(true);
  });

  it("a history rewritten under the same key is rejected: not an extension of the checkpoint seen", async () => {
    // The operator starts over from edited content, the withdrawn review's original entry gone.
    const rewritten = await tempDir("pr-log-rewritten-");
    await cp(content, rewritten, { recursive: true });
    await rm(path.join(rewritten, "reviews", "2024", `${MIKE}.yaml`));
    for (let i = 0; i < 4; i++) {
      const extra = (await readFile(file(CARLOS), "utf8")).replace(/^author: .*$/m, `author: Filler ${i}`);
      await writeFile(path.join(rewritten, "reviews", "2025", `2025-03-10-filler-${i}.yaml`), extra);
    }
    const b = await build(rewritten, await tempDir("pr-log-fresh-"));
    expect(b.code, b.stderr).toBe(0);
    const v = await verify(b.distDir);
    await v.app.close();
    expect(v.code).toBe(1);
    expect(v.err).toBe(
      "log:verify: the log of size 11 is not an extension of the checkpoint of size 10 seen on 2026-11-27: its history was rewritten",
    );
    // The state file still holds the last good checkpoint.
    expect(JSON.parse(await readFile(state, "utf8"))).toMatchObject({ size: 10 });
  });
});
