import { count, type Figure } from "./figures.ts";
import { type LoadRequest, loadRunner, meanRps } from "./load.ts";
import type { Profile } from "./profile.ts";
import { startServer } from "./server-process.ts";
import type { Workspace } from "./workspace.ts";

/**
 * What a feed reader sends: it takes compressed bodies, so it holds the compressed variant's ETag.
 * gzip rather than br only because the first, priming GET then compresses 100 MB in seconds,
 * not a minute; the 304 path is the same for every coding.
 */
const ACCEPT_ENCODING = "gzip";
/** "Since my last visit": a month, half a year and a year back from the newest review. */
const SINCE_DATES = ["2026-10-20", "2026-05-20", "2025-11-20"];

/** Fetches `path` once and returns the request that revalidates it (If-None-Match with its ETag). */
async function revalidation(url: string, path: string): Promise<LoadRequest> {
  const res = await fetch(`${url}${path}`, { headers: { "accept-encoding": ACCEPT_ENCODING } });
  await res.arrayBuffer();
  const etag = res.headers.get("etag");
  if (res.status !== 200 || !etag) throw new Error(`GET ${path}: expected 200 with an ETag, got ${res.status}`);
  return { path, headers: { "accept-encoding": ACCEPT_ENCODING, "if-none-match": etag } };
}

/**
 * The 304 path of `/api/reviews/since/{date}` and of `/reviews.json`, each relative to `/healthz`
 * on the same single-origin server, at the large size (where a body would be largest, so any work
 * the 304 path does that it should not would show most).
 */
export async function benchConditional(ws: Workspace, p: Profile): Promise<Figure[]> {
  const contentDir = await ws.content(p.large);
  const { distDir } = await ws.dist(p.large);
  const server = await startServer({ distDir, contentDir });
  try {
    const since = await Promise.all(SINCE_DATES.map((d) => revalidation(server.url, `/api/reviews/since/${d}`)));
    const dataset = [await revalidation(server.url, "/reviews.json")];
    const run = loadRunner(server.url, p);
    const healthz = [{ path: "/healthz" }];
    const before = await run(healthz, 200);
    const sinceRun = await run(since, 304);
    const datasetRun = await run(dataset, 304);
    const after = await run(healthz, 200);
    const base = meanRps(before, after);
    const detail = (r: { rps: number; p99Ms: number }) =>
      `${Math.round(r.rps)} / ${Math.round(base)} req/s; p99 ${r.p99Ms} ms; healthz ${Math.round(before.rps)} before, ${Math.round(after.rps)} after`;
    const n = count(p.large);
    return [
      {
        section: "conditional",
        name: `304 of /api/reviews/since/{date} / healthz req/s, ${n} reviews`,
        value: sinceRun.rps / base,
        unit: "ratio",
        target: { op: ">=", value: 0.8 },
        detail: `${detail(sinceRun)}; dates ${SINCE_DATES.join(", ")}`,
      },
      {
        section: "conditional",
        name: `304 of /reviews.json / healthz req/s, ${n} reviews`,
        value: datasetRun.rps / base,
        unit: "ratio",
        target: { op: ">=", value: 0.8 },
        detail: detail(datasetRun),
      },
    ];
  } finally {
    await server.stop();
  }
}
