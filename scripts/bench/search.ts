import { count, type Figure } from "./figures.ts";
import { type LoadResult, loadRunner, meanRps } from "./load.ts";
import type { Profile } from "./profile.ts";
import { type SearchArgs, searchMix, searchPath } from "./queries.ts";
import { type ServerProcess, startServer } from "./server-process.ts";
import type { Workspace } from "./workspace.ts";

const rps = (r: LoadResult) => `${Math.round(r.rps)} req/s`;
const ms = (v: number) => `${v.toFixed(1)} ms`;

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

/**
 * Search throughput relative to `/healthz` on the same server process, and search latency, at the
 * middle and large sizes, on the single-origin server. `/healthz` runs before and after the search
 * run and the two are averaged, so a change in machine load during the run shifts both sides of
 * the ratio alike.
 */
export async function benchSearch(ws: Workspace, p: Profile): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const [size, target] of [
    [p.middle, 0.6],
    [p.large, 0.4],
  ] as const) {
    const contentDir = await ws.content(size);
    const { distDir } = await ws.dist(size);
    const args = await searchMix(contentDir);
    const mix = args.map((a) => ({ path: searchPath(a) }));
    const server = await startServer({ distDir, contentDir });
    try {
      const run = loadRunner(server.url, p);
      const healthz = [{ path: "/healthz" }];
      const phrases = await freshPhrases(server, args, p.mode === "full" ? 40 : 10);
      const first = await firstSearchLatency(server, phrases);
      const before = await run(healthz);
      const search = await run(mix);
      const compressed =
        size === p.middle
          ? await run(mix.map((m) => ({ ...m, headers: { "accept-encoding": "gzip, deflate, br" } })))
          : undefined;
      const after = await run(healthz);
      const base = meanRps(before, after);
      const n = count(size);
      figures.push(
        {
          section: "search",
          name: `search req/s / healthz req/s, ${n} reviews`,
          value: search.rps / base,
          unit: "ratio",
          target: { op: ">=", value: target },
          detail: `${rps(search)} / ${Math.round(base)} req/s (healthz ${rps(before)} before, ${rps(after)} after); ${p.connections} connections, ${mix.length} queries`,
        },
        {
          section: "search",
          name: `search p99 latency, ${n} reviews`,
          value: search.p99Ms,
          unit: "ms",
          target: size === p.middle ? { op: "<=", value: 25 } : undefined,
          detail: `p50 ${search.p50Ms} ms; healthz p99 ${after.p99Ms} ms; ${search.requests} requests in ${p.durationS} s`,
        },
        {
          section: "search",
          name: `first search for a phrase, p50 latency, ${n} reviews`,
          value: first[Math.floor(first.length / 2)] ?? Number.NaN,
          unit: "ms",
          detail: `${first.length} phrases never searched before, one at a time; max ${ms(first.at(-1) ?? Number.NaN)}; no target`,
        },
      );
      if (compressed) {
        figures.push({
          section: "search",
          name: `search with Accept-Encoding: br req/s / healthz req/s, ${n} reviews`,
          value: compressed.rps / base,
          unit: "ratio",
          detail: `${rps(compressed)} / ${Math.round(base)} req/s; p99 ${compressed.p99Ms} ms; what browsers and fetch() get; no target`,
        });
      }
    } finally {
      await server.stop();
    }
  }
  return figures;
}
