import { type CacheHint, McpServer } from "@modelcontextprotocol/server";
import pkg from "../../package.json" with { type: "json" };
import type { SnapshotStore } from "../build/snapshot.ts";
import { registerInsights } from "./insights.ts";
import { registerDatasetResources } from "./resources.ts";
import { registerReviewTools } from "./tools.ts";

export const SERVER_INFO = { name: pkg.name, version: pkg.version };

/** Sent to the client at initialize; a model reads it to decide which tool answers which question. */
export const INSTRUCTIONS = `Public, read-only data about Willow Creek Chiropractic & Wellness (a chiropractic practice in Beaverton, Oregon): its verified customer reviews, its business profile and its aggregate rating. The same data is published at /reviews.json and /insights.json; every tool here only reads.

Which tool to use:
- get_business: profile, contact details, opening hours, the technicians (with names and aliases), services and service areas, and the overall rating. Call it first when a question names a person or a service, to learn the accepted names and ids.
- search_reviews: reviews filtered by rating, min_rating, since/until (YYYY-MM-DD), query (text substring), mentions_technician (name or alias) and mentions_service (service id), paged with limit/offset. Use it for "what do people say about X", "recent low ratings", and similar questions; "total" gives counts.
- get_review: one review by id, e.g. to quote it in full (also the resource reviews://{id}).
- get_reviews_since: everything dated on or after a day, to catch up on what is new.
- get_insights: the overall picture computed from all reviews: sentiment per aspect (wait times, billing, care...) with trends and quotes, most mentioned technicians and services, recurring topics, FAQ and summary. Use it for "what are the strengths and weaknesses" or "is it getting better"; then search_reviews for the underlying reviews.

Cite reviews by their "url". Ratings are 1 to 5 stars. An invalid argument gives an error naming the parameter, the value received and what is valid: fix it and retry.`;

/**
 * The datasets are served with `Cache-Control: public, max-age=300` (src/lib/headers.ts), and the
 * lists change only with a new build, so 2026-07-28 clients may cache them as long, shared.
 */
export const CACHE_HINT: CacheHint = { ttlMs: 300_000, cacheScope: "public" };

export interface McpServerDeps {
  store: SnapshotStore;
  baseUrl: string;
}

/**
 * A fresh server for one HTTP request (both eras are served per request). Each reads
 * `store.current` per call, so a reload is visible at once; building one is cheap because the
 * tools close over shared data and keep nothing themselves.
 */
export function createMcpServer(deps: McpServerDeps): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions: INSTRUCTIONS,
    // Nothing here changes at run time but the reviews (resources/updated), so no list ever changes.
    capabilities: {
      tools: { listChanged: false },
      resources: { subscribe: true, listChanged: false },
      completions: {},
    },
    cacheHints: {
      "tools/list": CACHE_HINT,
      "resources/list": CACHE_HINT,
      "resources/templates/list": CACHE_HINT,
      "resources/read": CACHE_HINT,
      "server/discover": CACHE_HINT,
    },
  });
  registerReviewTools(server, deps);
  registerDatasetResources(server, deps);
  registerInsights(server, deps);
  return server;
}
