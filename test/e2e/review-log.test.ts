import { createHash } from "node:crypto";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import canonicalize from "canonicalize";
import { beforeAll, describe, expect, it } from "vitest";
import { main as check } from "../../scripts/check-content.ts";
import type { ReviewsDataset } from "../../src/content/records.ts";
import { readDistFiles } from "../../src/io/dist-files.ts";
import { decodeBundle, decodeEntry, type LogEntry } from "../../src/log/entries.ts";
import { HEADER_FILES, undatedHeaders } from "../helpers/build-site.ts";
import { freePort } from "../helpers/free-port.ts";
import { GO_MISSING, loggedSite } from "../helpers/logged-site.ts";
import { nginxUnavailable, startNginx } from "../helpers/nginx.ts";
import type { SiteProxy } from "../helpers/site-proxy.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

/**
 * The review log end to end: real builds of a content folder that an editor changes between
 * them, one LOG_DIR kept across the builds, each build served over HTTP (behind a small proxy on
 * the port BASE_URL names, so the site a build continues and the site a monitor reads are the
 * same) and checked by `npm run log:verify` with a state file, and by the independent Go verifier
 * throughout. Then a proxy that tampers with /reviews.json, a history rewritten under the same
 * key, and a CI-like build with an empty LOG_DIR that must continue the published log.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const MIKE = "2024-11-21-mike";
const CARLOS = "2025-03-10-carlos-d";
const NOW = new Date("2026-11-27T00:00:00Z");

const logged = loggedSite(NOW);
const temp = tempFolders();
let content: string;
let logDir: string;
let state: string;
/** The output of the last build that succeeded, served by the next test that needs the site as it is. */
let lastDist: string;

/** The site at BASE_URL, which can tamper with what the app serves. */
let site: SiteProxy;
let BASE: string;
let _KEY: { skey: string; vkey: string };

beforeAll(async () => {
  ({ site, base: BASE, key: _KEY } = logged);
  content = await temp.copy(FIXTURE, "pr-log-content-");
  logDir = await temp.make("pr-log-state-");
  state = path.join(await temp.make("pr-log-monitor-"), "state.json");
});

const file = (id: string, dir = content) => path.join(dir, "reviews", id.slice(0, 4), `${id}.yaml`);

const build = (dir = content, log = logDir, env: Record<string, string> = {}) => logged.build(dir, log, env);
const monitor = (argv: string[] = []) => logged.monitor(state, argv);

/** The Go verifier against the site at BASE_URL; `old` is "size:root" of a checkpoint it must extend. */
const goVerify = async (old?: string) => (await logged.goVerify(old)) ?? { code: 0, out: "skipped", err: "" };

/** Every entry of the served log, parsed. */
async function entries(): Promise<LogEntry[]> {
  const size = Number((await (await fetch(`${BASE}/log/checkpoint`)).text()).split("\n")[1]);
  const out: LogEntry[] = [];
  for (let n = 0; n * 256 < size; n++) {
    const width = Math.min(256, size - n * 256);
    const p = `${String(n).padStart(3, "0")}${width < 256 ? `.p/${width}` : ""}`;
    const bytes = new Uint8Array(await (await fetch(`${BASE}/log/tile/entries/${p}`)).arrayBuffer());
    out.push(...decodeBundle(bytes).map(decodeEntry));
  }
  return out;
}

async function dataset(): Promise<ReviewsDataset> {
  return (await fetch(`${BASE}/reviews.json`)).json() as Promise<ReviewsDataset>;
}

const checkpointOf = async () => (await (await fetch(`${BASE}/log/checkpoint`)).text()).split("\n");

describe("the review log", { timeout: 1_500_000 }, () => {
  it.skipIf(GO_MISSING)(`(the Go verifier: ${GO_MISSING ?? "available"})`, () => {});

  it("a first build logs every review as a commitment, and both verifiers accept the log and the records", async () => {
    const b = await build();
    expect(b.code, b.stderr).toBe(0);
    const app = await site.serve(b.distDir);
    try {
      const v = await monitor();
      expect(v.err).toBe("");
      expect(v.code).toBe(0);
      expect(v.out).toMatch(/^verified localhost:\d+\/log: 8 entries, root /);
      expect(v.out).toContain("8 published, 0 amended, 0 withdrawn, 0 restored");
      expect(v.out).toContain("8 records, each opening the commitment of the latest log entry for its review");
      const g = await goVerify();
      expect(g.err).toBe("");
      expect(g.code).toBe(0);
      const cp = await fetch(`${BASE}/log/checkpoint`);
      expect(cp.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      const logged = await entries();
      // Every commitment, recomputed here from the record and its nonce: SHA-256(nonce || RFC 8785 JSON).
      for (const r of (await dataset()).reviews) {
        const e = logged[r.log_index];
        expect(e?.event).toBe("published");
        const { url, aspects, log_index, log_nonce, ...rest } = r;
        const digest = createHash("sha256")
          .update(Buffer.from(log_nonce, "base64"))
          .update(canonicalize(rest) as string)
          .digest("base64");
        expect(e && "commitment" in e ? e.commitment : undefined).toBe(digest);
      }
      // The verifier's source is served and linked from /log/.
      expect(await (await fetch(`${BASE}/log/`)).text()).toContain("/log/verifier/scripts/log-verify.ts.txt");
      expect(await (await fetch(`${BASE}/log/verifier/scripts/log-verify.ts.txt`)).text()).toContain("checkSite");
    } finally {
      await app.close();
    }
  });

  it("an edit appends an amended entry; the older checkpoint's partial tiles are still served; both verifiers prove the extension", async () => {
    const old = await readFile(path.join(logDir, "checkpoint"), "utf8");
    const text = await readFile(file(CARLOS), "utf8");
    await writeFile(file(CARLOS), text.replace("Sprained my ankle", "Twisted my ankle"));
    const b = await build();
    expect(b.code, b.stderr).toBe(0);
    lastDist = b.distDir;
    const app = await site.serve(b.distDir);
    try {
      const v = await monitor();
      expect(v.code, v.err).toBe(0);
      expect(v.out).toMatch(/9 entries, .* it extends the checkpoint of size 8 seen on 2026-11-27\n/);
      expect((await dataset()).reviews.find((r) => r.id === CARLOS)?.log_index).toBe(8);
      const amended = (await entries())[8];
      expect(amended).toMatchObject({ event: "amended", id: CARLOS });
      // Feed readers see the edit: the entry's last change is the day the log recorded it.
      const feed = (await (await fetch(`${BASE}/api/feed.json`)).json()) as {
        items: { id: string; date_published: string; date_modified: string }[];
      };
      const item = feed.items.find((i) => i.id.endsWith(`review/${CARLOS}`));
      expect((item?.date_published ?? "").slice(0, 10) < (amended?.logged ?? "")).toBe(true);
      expect(item?.date_modified).toBe(`${amended?.logged}T00:00:00Z`);
      const atom = await (await fetch(`${BASE}/feed.xml`)).text();
      expect(atom.split("<entry>")[0]).toContain(`<updated>${amended?.logged}T00:00:00.000Z</updated>`);
      const sitemap = await (await fetch(`${BASE}/sitemap.xml`)).text();
      expect(sitemap).toContain(`/reviews/${CARLOS}/</loc><lastmod>${amended?.logged}</lastmod>`);
      for (const p of ["tile/0/000.p/8", "tile/entries/000.p/8", "tile/0/000.p/9"]) {
        expect((await fetch(`${BASE}/log/${p}`)).status, p).toBe(200);
      }
      const [, size, root] = old.split("\n");
      const g = await goVerify(`${size}:${root}`);
      expect(g.code, g.err).toBe(0);
    } finally {
      await app.close();
    }
  });

  it("a proxy that drops a review and changes a rating fails log:verify, naming both", async () => {
    const app = await site.serve(lastDist);
    const tamper = (d: ReviewsDataset): ReviewsDataset => ({
      ...d,
      reviews: d.reviews
        .filter((r) => r.id !== MIKE)
        .map((r) => (r.id === CARLOS ? { ...r, rating: r.rating === 1 ? 5 : 1 } : r)),
    });
    site.rewrite = (url, body) => (url === "/reviews.json" ? JSON.stringify(tamper(JSON.parse(body))) : undefined);
    try {
      const v = await monitor();
      expect(v.code).toBe(1);
      expect(v.err).toContain(`log:verify: ${MIKE} is in the log (entry`);
      expect(v.err).toContain("but not served: silently removed?");
      expect(v.err).toMatch(
        new RegExp(`log:verify: ${CARLOS} \\(served with rating \\d\\) does not match log entry 8`),
      );
      expect((await goVerify()).code).toBe(GO_MISSING ? 0 : 1);
    } finally {
      site.reset();
      await app.close();
    }
  });

  it("deleting a logged review's file fails the build, and npm run check refuses it with no key and no local state", async () => {
    const before = await readFile(path.join(logDir, "checkpoint"), "utf8");
    const text = await readFile(file(MIKE), "utf8");
    await rm(file(MIKE));
    const app = await site.serve(lastDist);
    try {
      const b = await build();
      expect(b.code).toBe(1);
      const message = `${file(MIKE)}: deleted, but review ${MIKE} is in the public review log`;
      // The build's own log is BASE_URL's, a loopback origin here: a local preview's, it says.
      expect(b.stdout + b.stderr).toContain(
        `${file(MIKE)}: deleted, but review ${MIKE} is in the review log of a local preview`,
      );
      // No LOG_DIR, an empty DATA_DIR, no key: the published log at BASE_URL is enough.
      const lines: string[] = [];
      const code = await check({
        env: { CONTENT_DIR: content, BASE_URL: BASE, DATA_DIR: await temp.make("pr-log-nodata-") },
        now: NOW,
        out: (l) => lines.push(l),
        err: (l) => lines.push(l),
      });
      expect(code).toBe(1);
      expect(lines.join("\n")).toContain(message);
      expect(lines.join("\n")).toContain(`of ${BASE}/log); a published review is never deleted`);
      expect(await readFile(path.join(logDir, "checkpoint"), "utf8")).toBe(before);
    } finally {
      await app.close();
      await writeFile(file(MIKE), text);
    }
  });

  it("a confidential withdrawal leaves no text, title or author field under /log/ (only the id), its URL answers 410, and the counts add up", async () => {
    const yaml = await readFile(file(MIKE), "utf8");
    await writeFile(file(MIKE), `${yaml}withdrawn:\n  reason: confidential-or-private\n  date: 2026-11-20\n`);
    const b = await build();
    expect(b.code, b.stderr).toBe(0);
    lastDist = b.distDir;
    const app = await site.serve(b.distDir);
    try {
      expect((await monitor()).code).toBe(0);
      expect((await goVerify()).code).toBe(0);
      expect((await dataset()).reviews.map((r) => r.id)).not.toContain(MIKE);
      expect((await entries())[9]).toEqual({
        event: "withdrawn",
        id: MIKE,
        reason: "confidential-or-private",
        date: "2026-11-20",
        logged: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      });
      const secrets = ["fifty minutes", "Waited fifty", "Mike", "doorbell", "An emergency walk-in"];
      const logFiles = (await readDistFiles(b.distDir)).filter(
        (f) => f.path.startsWith("/log/") && !f.path.startsWith("/log/verifier/"),
      );
      expect(logFiles.length).toBeGreaterThan(5);
      for (const f of logFiles) {
        const bytes = Buffer.from(f.bytes).toString("latin1");
        for (const s of secrets) expect(bytes.includes(s), `${f.path} holds ${s}`).toBe(false);
      }
      const gone = await fetch(`${BASE}/reviews/${MIKE}/`);
      expect(gone.status).toBe(410);
      const page = await gone.text();
      expect(page).toContain("This review was withdrawn");
      expect(page).toContain("for private information");
      expect(page).not.toContain("fifty minutes");
      const log = await (await fetch(`${BASE}/log/`)).text();
      expect(log).toContain("The log has 10 entries: 8 published, 1 amended, 1 withdrawn and 0 restored.");
    } finally {
      await app.close();
    }
    // deploy/nginx.conf answers the same 410 from the files alone (its upstreams are not needed).
    if (!nginxUnavailable()) {
      const port = await freePort();
      const nginx = await startNginx({ port, upstreams: [9, 9], distDir: b.distDir });
      try {
        const gone = await fetch(`${nginx.url}/reviews/${MIKE}/`);
        expect(gone.status).toBe(410);
        expect(await gone.text()).toContain("This review was withdrawn");
        expect((await fetch(`${nginx.url}/reviews/${CARLOS}/`)).status).toBe(200);
        expect((await fetch(`${nginx.url}/reviews/2020-01-01-nobody/`)).status).toBe(404);
      } finally {
        await nginx.stop();
      }
    }
    // The same content on the same state gives the same bytes.
    const again = await build();
    expect(again.code).toBe(0);
    const a = await readDistFiles(b.distDir);
    const c = await readDistFiles(again.distDir);
    expect(c.map((f) => f.path)).toEqual(a.map((f) => f.path));
    for (const [i, f] of a.entries()) {
      // Each build dates the files it writes by its own time (src/http-headers/last-modified.ts).
      if ((HEADER_FILES as readonly string[]).includes(f.path)) continue;
      expect(Buffer.from(c[i]?.bytes ?? []).equals(Buffer.from(f.bytes)), f.path).toBe(true);
    }
    const manifest = (files: typeof a) =>
      undatedHeaders(JSON.parse(Buffer.from(files.find((f) => f.path === "/_headers.json")?.bytes ?? []).toString()));
    expect(manifest(c)).toEqual(manifest(a));
  });

  it("log:verify --pages reads every review's page: one rewritten after the build, or a withdrawn one served again, fails it", async () => {
    const app = await site.serve(lastDist);
    try {
      const v = await monitor(["--pages"]);
      expect(v.code, v.err).toBe(0);
      expect(v.out).toContain("1 withdrawn review not served, nor its page");
      expect(v.out).toMatch(
        /\n {2}7 review pages: each shows its record's title, stars, author and text, and its JSON-LD says the same$/,
      );
      const carlos = await (await fetch(`${BASE}/reviews/${CARLOS}/`)).text();
      site.rewrite = (url, body) => {
        if (url === `/reviews/${MIKE}/`) return { status: 200, body };
        if (url !== `/reviews/${CARLOS}/`) return undefined;
        // The visible text only: the JSON-LD still says what the record says.
        return body.replace(/(<div class="review__body"[^>]*><p[^>]*>)Twisted/, "$1Broke");
      };
      expect(carlos).toMatch(/<div class="review__body"[^>]*><p[^>]*>Twisted/);
      const t = await monitor(["--pages"]);
      expect(t.code).toBe(1);
      expect(t.err).toContain(
        `log:verify: ${MIKE} was withdrawn (log entry 9), but ${BASE}/reviews/${MIKE}/ still serves a page`,
      );
      expect(t.err).toContain(
        `log:verify: ${CARLOS}: ${BASE}/reviews/${CARLOS}/ shows other text than the record the log vouches for`,
      );
      expect(t.err.split("\n")).toHaveLength(2);
    } finally {
      site.reset();
      await app.close();
    }
  });

  it("a build with an empty LOG_DIR against the running site continues its log", async () => {
    const app = await site.serve(lastDist);
    const [, size] = await checkpointOf();
    await writeFile(file(MIKE), (await readFile(file(MIKE), "utf8")).replace(/withdrawn:[\s\S]*$/, ""));
    try {
      const fresh = await temp.make("pr-log-ci-");
      const b = await build(content, fresh);
      expect(b.code, b.stderr).toBe(0);
      expect(b.stderr).toContain(`continuing the log published at ${BASE}/log (${size} entries)`);
      await app.close();
      const next = await site.serve(b.distDir);
      try {
        const v = await monitor();
        expect(v.code, v.err).toBe(0);
        expect(v.out).toContain(`it extends the checkpoint of size ${size}`);
        expect(v.out).toContain("8 published, 1 amended, 1 withdrawn, 1 restored");
      } finally {
        await next.close();
      }
      // LOG_DIR now holds the continued log.
      expect((await readFile(path.join(fresh, "checkpoint"), "utf8")).split("\n")[1]).toBe(String(Number(size) + 1));
    } finally {
      await app.close();
    }
  });

  it("a history rewritten under the same key is rejected: not an extension of the checkpoint seen", async () => {
    const rewritten = await temp.copy(content, "pr-log-rewritten-");
    await rm(file(MIKE, rewritten));
    for (let i = 0; i < 4; i++) {
      const extra = (await readFile(file(CARLOS), "utf8")).replace(/^author: .*$/m, `author: Filler ${i}`);
      await writeFile(path.join(rewritten, "reviews", "2025", `2025-03-10-filler-${i}.yaml`), extra);
    }
    const b = await build(rewritten, await temp.make("pr-log-fresh-"));
    expect(b.code, b.stderr).toBe(0);
    const app = await site.serve(b.distDir);
    const v = await monitor();
    await app.close();
    expect(v.code).toBe(1);
    expect(v.err).toMatch(
      /^log:verify: the log of size 11 \(root [A-Za-z0-9+/]{43}=\) is not an extension of the checkpoint of size 11 seen on 2026-11-27 \(root [A-Za-z0-9+/]{43}=\): the log forked \(two builds appended to one checkpoint, and both were published\) or its history was rewritten$/,
    );
    expect(JSON.parse(await readFile(state, "utf8"))).toMatchObject({ size: 11 });
  });
});
