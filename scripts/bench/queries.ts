import { readFile } from "node:fs/promises";
import path from "node:path";
import jsYaml from "js-yaml";
import { ASPECT_PHRASES } from "../generate/aspect-phrases.ts";
import { createRng } from "../generate/prng.ts";

/**
 * The search mix every search figure uses: filters alone and combined, substring queries (common,
 * rare, phrase, none matching), technician and service mentions by name, alias and id, date
 * ranges and deep pages. Names come from the catalogue the content was generated from, so the
 * mentions always resolve.
 */

export type SearchArgs = Record<string, string | number>;

interface Catalogue {
  technicians: { id: string; name: string; aliases?: string[] }[];
  services: { id: string }[];
}

async function catalogue(contentDir: string): Promise<Catalogue> {
  return jsYaml.load(await readFile(path.join(contentDir, "business.yaml"), "utf8"), {
    schema: jsYaml.CORE_SCHEMA,
  }) as Catalogue;
}

export async function searchMix(contentDir: string): Promise<SearchArgs[]> {
  const cat = await catalogue(contentDir);
  const tech = (i: number) => cat.technicians[i % cat.technicians.length];
  const service = (i: number) => cat.services[i % cat.services.length]?.id ?? "";
  const t0 = tech(0);
  const t1 = tech(1);
  const t2 = tech(2);
  if (!t0 || !t1 || !t2) throw new Error(`${contentDir}/business.yaml: technicians: expected at least one`);
  return [
    {},
    { rating: 5 },
    { min_rating: 4 },
    { rating: 1, limit: 50 },
    { min_rating: 4, offset: 100 },
    { since: "2026-01-01" },
    { min_rating: 3, since: "2024-06-01", until: "2025-05-31" },
    { mentions_technician: t0.aliases?.[0] ?? t0.name },
    { mentions_technician: t1.name, min_rating: 4 },
    { mentions_service: service(0) },
    { mentions_service: service(2), rating: 5, since: "2025-01-01" },
    { mentions_technician: t2.id, mentions_service: service(1) },
    { query: "front desk" },
    { query: "back" },
    { query: "massage", rating: 5 },
    { query: (t1.aliases?.[0] ?? t1.name).toLowerCase(), min_rating: 2 },
    { query: "highly recommend", since: "2024-01-01" },
    { query: "sciatica", mentions_service: service(0) },
    { query: "no review says this" },
  ];
}

/** The HTTP request for `args` (values as a browser would send them). */
export function searchPath(args: SearchArgs): string {
  const qs = new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)]));
  const s = qs.toString();
  return `/api/reviews/search${s ? `?${s}` : ""}`;
}

/** Words and two-word phrases of the sentences the generator writes reviews from. */
function reviewPhrases(): string[] {
  const out = new Set<string>();
  for (const aspect of Object.values(ASPECT_PHRASES)) {
    for (const sentence of Object.values(aspect).flat()) {
      const words: string[] =
        sentence
          .toLowerCase()
          .replace(/\{[^}]*\}/g, " ")
          .match(/[a-z][a-z'-]+/g) ?? [];
      words.forEach((w, i) => {
        if (w.length >= 4) out.add(w);
        const next = words[i + 1];
        if (next) out.add(`${w} ${next}`);
      });
    }
  }
  return [...out].sort();
}

/** A day between 2022-11-21 and 2026-11-20, the span of the generated content. */
function randomDay(next: () => number): string {
  const start = Date.UTC(2022, 10, 21);
  const days = Math.floor((Date.UTC(2026, 10, 20) - start) / 86_400_000);
  return new Date(start + Math.floor(next() * (days + 1)) * 86_400_000).toISOString().slice(0, 10);
}

/**
 * `n` distinct random queries, as a public search sees them: each filter present with its own
 * probability, text from review phrases, technicians by name, alias or id, dates within the content's
 * span, some deep pages. Seeded, so two runs send the same queries. Every query is valid.
 */
export async function randomSearchMix(contentDir: string, n: number, seed: string): Promise<SearchArgs[]> {
  const cat = await catalogue(contentDir);
  const rng = createRng(seed);
  const phrases = reviewPhrases();
  const techNames = cat.technicians.flatMap((t) => [t.id, t.name, ...(t.aliases ?? [])]);
  const out = new Map<string, SearchArgs>();
  for (let tries = 0; out.size < n && tries < n * 100; tries++) {
    const a: SearchArgs = {};
    if (rng.chance(0.45)) a.query = rng.pick(phrases);
    const rating = rng.next();
    if (rating < 0.2) a.rating = rng.int(1, 5);
    else if (rating < 0.4) a.min_rating = rng.pick([1, 2, 2.5, 3, 3.5, 4, 4.5, 5]);
    if (rng.chance(0.25)) {
      const [since, until] = [randomDay(rng.next), randomDay(rng.next)].sort();
      if (rng.chance(0.7)) a.since = since as string;
      if (rng.chance(0.5)) a.until = until as string;
    }
    if (rng.chance(0.2)) a.mentions_technician = rng.pick(techNames);
    if (rng.chance(0.15)) a.mentions_service = rng.pick(cat.services).id;
    if (rng.chance(0.2)) a.limit = rng.pick([5, 10, 50, 100]);
    if (rng.chance(0.2)) a.offset = rng.pick([20, 40, 100, 200]);
    out.set(searchPath(a), a);
  }
  return [...out.values()];
}
