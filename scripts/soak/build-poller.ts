import { strongEtag } from "../../src/http-headers/manifest.ts";

/**
 * Polls a running server while its build changes and counts what a visitor would see: every
 * response must be a 200 or a 304, every body must hash to its ETag, and a `/reviews.json` body
 * must come from one build. Shared by the rebuild soak script and test/e2e/atomic-rebuild.test.ts.
 */

export interface Tally {
  responses: number;
  notModified: number;
  /** Responses other than 200/304, ETag/body disagreements and mixed datasets. */
  failures: number;
  /** The first failures, for a message. */
  bad: string[];
  /** Count per status code. */
  statuses: Record<number, number>;
}

export const newTally = (): Tally => ({ responses: 0, notModified: 0, failures: 0, bad: [], statuses: {} });

function fail(tally: Tally, what: string): void {
  tally.failures++;
  if (tally.bad.length < 20) tally.bad.push(what);
}

/** The marker a soak review carries in its text, so a body shows which soak reviews it holds. */
export const soakMarker = (k: number) => `soakmarker${k}`;

/** A valid review file for soak change `k` (1-28): a visit in December 2024, published `now`. */
export function soakReview(k: number, now = new Date()): { name: string; yaml: string } {
  const day = `2024-12-${String(k).padStart(2, "0")}`;
  const yaml = [
    `date: ${day}`,
    // Published now, as review:new stamps it: a review first published must be the newest
    // (src/log/late-publications.ts); the visit day is backfilled.
    `published_at: "${now.toISOString().slice(0, 19)}Z"`,
    "rating: 4",
    `author: Soak ${k}.`,
    `text: Visit number ${k} went smoothly; the ${soakMarker(k)} sticker was still on the door.`,
    "source: {platform: direct}",
    `verification: {method: invoice, verified_on: ${day}}`,
    "",
  ].join("\n");
  return { name: `${day}-soak-${k}.yaml`, yaml };
}

/** Fetches `paths` round-robin from `baseUrl` until `stop.done`, adding to `tally`. */
export async function pollBuilds(baseUrl: string, paths: string[], stop: { done: boolean }, tally: Tally) {
  const lastTag = new Map<string, string>();
  for (let i = 0; !stop.done; i++) {
    const p = paths[i % paths.length] as string;
    // Every third request is conditional, so 304s are part of the mix.
    const tag = i % 3 === 0 ? lastTag.get(p) : undefined;
    let res: Response;
    try {
      res = await fetch(`${baseUrl}${p}`, {
        headers: { "accept-encoding": "identity", ...(tag ? { "if-none-match": tag } : {}) },
      });
    } catch (err) {
      fail(tally, `${p}: ${(err as Error).message}`);
      continue;
    }
    const body = Buffer.from(await res.arrayBuffer());
    tally.responses++;
    tally.statuses[res.status] = (tally.statuses[res.status] ?? 0) + 1;
    const etag = res.headers.get("etag") ?? "";
    if (res.status === 304) {
      tally.notModified++;
      if (etag !== tag) fail(tally, `${p}: 304 with ETag ${etag}, asked ${tag}`);
      continue;
    }
    if (res.status !== 200) {
      fail(tally, `${p}: ${res.status}`);
      continue;
    }
    if (etag !== strongEtag(body)) fail(tally, `${p}: ETag ${etag} is not the hash of the body`);
    lastTag.set(p, etag);
    if (p === "/reviews.json") {
      // Soak change k adds soak review k; a body from one build holds exactly soak reviews 1..m.
      const ks = [...body.toString().matchAll(/soakmarker(\d+)/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
      if (ks.some((k, j) => k !== j + 1)) fail(tally, `/reviews.json mixes builds: soak reviews ${ks.join(",")}`);
    }
  }
}

/** The paths to poll: home, Atom feed, dataset and every month page of the dataset's reviews. */
export async function soakPaths(baseUrl: string): Promise<string[]> {
  const dataset = (await (await fetch(`${baseUrl}/reviews.json`)).json()) as { reviews: { date: string }[] };
  const months = [...new Set(dataset.reviews.map((r) => `/reviews/${r.date.slice(0, 4)}/${r.date.slice(5, 7)}/`))];
  return ["/", "/feed.xml", ...months.sort(), "/reviews.json"];
}
