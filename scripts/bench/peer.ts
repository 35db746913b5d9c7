import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { ROOT } from "./astro-build.ts";
import { track } from "./children.ts";
import { count, type Figure } from "./figures.ts";
import { load } from "./load.ts";
import type { Profile } from "./profile.ts";
import { BROWSER } from "./search.ts";
import { type ServerProcess, stopChild } from "./server-process.ts";

/** Substrings both servers are asked for: common and rare words, phrases, one matching nothing. */
const TERMS = [
  "front desk",
  "back",
  "massage",
  "highly recommend",
  "sciatica",
  "neck",
  "parking",
  "billing",
  "no review says this",
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function until(url: string, timeoutMs: number): Promise<void> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(url).then(
      async (r) => {
        await r.arrayBuffer();
        return r.status === 200;
      },
      () => false,
    );
    if (ok) return;
    if (performance.now() > end) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The peer figure: substring search on our server against json-server 0.17's `q=` full-text filter
 * over the same reviews (its database is the build's `reviews.json`, whose `reviews` array it
 * serves at `/reviews`), same terms, same page size, same connections and Accept-Encoding.
 */
export async function peerFigure(p: Profile, ours: ServerProcess, distDir: string): Promise<Figure> {
  const port = await freePort();
  const child = track(
    spawn(
      process.execPath,
      [
        path.join(ROOT, "node_modules/json-server/lib/cli/bin.js"),
        path.join(distDir, "reviews.json"),
        "--port",
        String(port),
        "--host",
        "127.0.0.1",
        "--read-only",
        "--quiet",
      ],
      { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] },
    ),
  );
  try {
    const peerUrl = `http://127.0.0.1:${port}`;
    await until(`${peerUrl}/reviews?_limit=1`, 60_000);
    const q = (t: string) => encodeURIComponent(t);
    // json-server answers one q= search in tens of milliseconds: fewer connections and a longer
    // timeout, the same for both, so its queue does not time out and leave nothing to divide by.
    const connections = Math.min(p.connections, 10);
    const run = (url: string, paths: string[]) =>
      load({
        url,
        requests: paths.map((path) => ({ path, headers: BROWSER })),
        durationS: p.durationS,
        warmupS: p.warmupS,
        connections,
        expectStatus: 200,
        timeoutS: 60,
      });
    const mine = await run(
      ours.url,
      TERMS.map((t) => `/api/reviews/search?query=${q(t)}&limit=20`),
    );
    const theirs = await run(
      peerUrl,
      TERMS.map((t) => `/reviews?q=${q(t)}&_limit=20`),
    );
    return {
      section: "search",
      name: `substring search req/s / json-server 0.17 q= req/s, ${count(p.middle)} reviews`,
      value: mine.rps / theirs.rps,
      unit: "ratio",
      target: { op: ">=", value: 10 },
      detail: `${Math.round(mine.rps)} / ${Math.round(theirs.rps)} req/s; p99 ${mine.p99Ms} ms vs ${theirs.p99Ms} ms; ${TERMS.length} terms, 20 per page, ${connections} connections`,
    };
  } finally {
    await stopChild(child, 5000);
  }
}
