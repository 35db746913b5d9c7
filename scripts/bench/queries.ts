import { readFile } from "node:fs/promises";
import path from "node:path";
import jsYaml from "js-yaml";

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

export async function searchMix(contentDir: string): Promise<SearchArgs[]> {
  const cat = jsYaml.load(await readFile(path.join(contentDir, "business.yaml"), "utf8"), {
    schema: jsYaml.CORE_SCHEMA,
  }) as Catalogue;
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
