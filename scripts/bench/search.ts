import { count, type Figure } from "./figures.ts";
import { type LoadResult, loadRunner, meanRps } from "./load.ts";
import { peerFigure } from "./peer.ts";
import type { Profile } from "./profile.ts";
import { randomSearchMix, type SearchArgs, searchMix, searchPath } from "./queries.ts";
import { type ServerProcess, startServer } from "./server-process.ts";
import type { Workspace } from "./workspace.ts";

const rps = (r: LoadResult) => `${Math.round(r.rps)} req/s`;
const ms = (v: number) => `${v.toFixed(1)} ms`;
const cpu = (r: LoadResult) => (r.cpuUs === undefined ? "n/a" : `${Math.round(r.cpuUs)} µs`);
/** Server CPU per /healthz ÷ per request of `r`: the throughput ratio as the server's own CPU sees it. */
const cpuRatio = (r: LoadResult, healthz: LoadResult[]) => {
  const h = healthz.map((x) => x.cpuUs);
  if (r.cpuUs === undefined || h.some((x) => x === undefined)) return "";
  const base = (h as number[]).reduce((a, b) => a + b, 0) / h.length;
  return `; server CPU per request ${cpu(r)} against ${Math.round(base)} µs for /healthz (${(base / r.cpuUs).toFixed(2)})`;
};

/**
 * Phrases the server has not been asked for yet, taken from review texts: the index remembers the
 * matches of recent phrases, so the mix measures warm phrases and these measure a first search.
 */
async function freshPhrases(server: ServerProcess, mix: SearchArgs[], want: number): Promise<string[]> {
  const res = await fetch(`${server.url}${searchPath({ limit: 100, offset: 50 })}`);
  const body = (await res.json()) as { reviews: { text: string }[] };
  const used = new Set(mix.map((a) => String(a.query ?? "")));
  const phrases = new Set<string>();
  for (const { text } of body.reviews) {
    const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
    for (let i = 0; i + 1 < words.length; i++) {
      const phrase = `${words[i]} ${words[i + 1]}`;
      if (phrase.length >= 8 && !used.has(phrase)) phrases.add(phrase);
    }
  }
  return [...phrases].slice(0, want);
}

async function firstSearchLatency(server: ServerProcess, phrases: string[]): Promise<number[]> {
  const times: number[] = [];
  for (const query of phrases) {
    const t = performance.now();
    // Uncompressed, so the time is the search and not gzip (which fetch() asks for by default).
    const res = await fetch(`${server.url}${searchPath({ query })}`, { headers: { "accept-encoding": "identity" } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`search for ${JSON.stringify(query)} answered ${res.status}`);
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b);
}

/** What browsers and fetch() send: every figure here is measured with it, /healthz included. */
export const BROWSER = { "accept-encoding": "gzip, deflate, br, zstd" };
/** Distinct queries in the realistic mix. */
const DISTINCT = 2000;

/**
 * Search throughput relative to `/healthz` on the same server process, and search latency, at the
 * middle and large sizes, on the single-origin server, all with a browser's Accept-Encoding.
 * `/healthz` runs before and after the search runs and the two are averaged, so a change in
 * machine load during the run shifts both sides of the ratio alike.
 *
 * Two mixes: the realistic one is 2,000 distinct random queries, warmed up with 2,000 others so
 * it starts with none of them cached (the first request for each pays parsing, the search and the
 * compression); the repeated one cycles through the 19 queries of `searchMix`.
 */
export async function benchSearch(ws: Workspace, p: Profile): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const [size, targets] of [
    [p.middle, { random: 0.5, repeated: 0.6 }],
    [p.large, { random: 0.4, repeated: 0.4 }],
  ] as const) {
    const contentDir = await ws.content(size);
    const { distDir } = await ws.dist(size);
    const args = await searchMix(contentDir);
    const withHeader = (a: SearchArgs) => ({ path: searchPath(a), headers: BROWSER });
    const repeated = args.map(withHeader);
    const distinct = p.mode === "full" ? DISTINCT : 200;
    const random = (await randomSearchMix(contentDir, distinct, "bench")).map(withHeader);
    const warm = (await randomSearchMix(contentDir, distinct, "warm-up")).map(withHeader);
    // Never sent before, not even by the other mixes (another seed still makes some of the same
    // simple queries), one request each; autocannon may build one more per connection than it sends.
    const sent = new Set([...repeated, ...random, ...warm].map((r) => r.path));
    const fresh = (await randomSearchMix(contentDir, 2 * distinct + p.connections, "each-once"))
      .map(withHeader)
      .filter((r) => !sent.has(r.path))
      .slice(0, distinct + p.connections);
    const server = await startServer({ distDir, contentDir });
    try {
      const run = loadRunner(server.url, p, server.pid);
      const healthz = [{ path: "/healthz", headers: BROWSER }];
      const phrases = await freshPhrases(server, args, p.mode === "full" ? 40 : 10);
      const first = await firstSearchLatency(server, phrases);
      const before = await run(healthz);
      const mixed = await run(random, 200, warm);
      const same = await run(repeated);
      const once = await run(fresh, 200, undefined, distinct);
      const after = await run(healthz);
      const base = meanRps(before, after);
      const n = count(size);
      const healthzDetail = `healthz ${rps(before)} before, ${rps(after)} after`;
      figures.push(
        {
          section: "search",
          name: `realistic search mix req/s / healthz req/s, ${n} reviews`,
          value: mixed.rps / base,
          unit: "ratio",
          target: { op: ">=", value: targets.random },
          detail: `${rps(mixed)} / ${Math.round(base)} req/s (${healthzDetail}); ${count(random.length)} distinct random queries, none cached at the start, every connection sending them in the same order (so the first to reach a query misses and the others hit); ${p.connections} connections; Accept-Encoding ${BROWSER["accept-encoding"]}${cpuRatio(mixed, [before, after])}`,
        },
        {
          section: "search",
          name: `every request a new query: req/s / healthz req/s, ${n} reviews`,
          value: once.rps / base,
          unit: "ratio",
          detail: `${rps(once)} / ${Math.round(base)} req/s; ${count(once.requests)} random queries, each sent once (none cached: parse, search, JSON, compression every time); p99 ${ms(once.p99Ms)}${cpuRatio(once, [before, after])}; no target`,
        },
        {
          section: "search",
          name: `realistic search mix p99 latency, ${n} reviews`,
          value: mixed.p99Ms,
          unit: "ms",
          target: size === p.middle ? { op: "<=", value: 25 } : undefined,
          detail: `p50 ${mixed.p50Ms} ms; healthz p99 ${after.p99Ms} ms; ${mixed.requests} requests in ${p.durationS} s`,
        },
        {
          section: "search",
          name: `repeated-query search req/s / healthz req/s, ${n} reviews`,
          value: same.rps / base,
          unit: "ratio",
          target: { op: ">=", value: targets.repeated },
          detail: `${rps(same)} / ${Math.round(base)} req/s; p99 ${same.p99Ms} ms; ${repeated.length} queries${cpuRatio(same, [before, after])}`,
        },
        {
          section: "search",
          name: `first search for a phrase, p50 latency, ${n} reviews`,
          value: first[Math.floor(first.length / 2)] ?? Number.NaN,
          unit: "ms",
          detail: `${first.length} phrases never searched before, one at a time; max ${ms(first.at(-1) ?? Number.NaN)}; no target`,
        },
      );
      if (size === p.middle) figures.push(await peerFigure(p, server, distDir));
    } finally {
      await server.stop();
    }
  }
  return figures;
}
