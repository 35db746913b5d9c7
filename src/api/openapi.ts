import { z } from "zod";
import type { ReviewsDataset } from "../content/records.ts";
import { ReviewsDatasetSchema } from "../content/records.ts";
import { JsonFeedSchema } from "../feeds/json-feed-schema.ts";
import { InsightsSchema } from "../insights/schema.ts";
import type { SiteUrls } from "../urls.ts";
import { apiExamples } from "./openapi-examples.ts";
import { mcpPathItem } from "./openapi-mcp.ts";
import { dropSafeIntegerBounds } from "./openapi-parts.ts";
import { apiPaths } from "./openapi-paths.ts";
import { servicePaths } from "./openapi-service-paths.ts";
import {
  ApiErrorSchema,
  InvalidRequestSchema,
  JsonRpcErrorSchema,
  LivenessSchema,
  OpenApiDocumentSchema,
  ReadinessSchema,
  SearchResultSchema,
  SinceResultSchema,
} from "./schemas.ts";

/**
 * The OpenAPI 3.1 description, generated from the same zod schemas the code validates with, so the
 * document cannot drift from the behaviour: the search parameters are `SearchParamsSchema` plus the
 * content's ids (search-parameters.ts), the bodies are the record schemas. Pure: the build passes
 * the URLs and the dataset in. Linted in the test suite with Spectral's `spectral:oas`
 * and Redocly's recommended rules, and held to the running server by test/e2e/api-contract.test.ts
 * (docs/api.md, "OpenAPI").
 */

/**
 * The contract's version, 1.x as the service spec says: the minor number grows with every change
 * to the contract (1.1.0 declared each search parameter on its own; 1.2.0 declared /mcp's 413 and
 * 503s; 1.3.0 dates feed entries changed after publication and answers JSON-preferring clients of
 * the hub with the Error body; 1.4.0 declares every 400 body with its `issues`, as each is sent,
 * that a publish ping names a topic, and the 431 of an over-long request line beside each 414;
 * 1.5.0 declares the 304 that /healthz and /livez give `If-None-Match: *`; 1.6.0 declares the Mcp-Method and Mcp-Name
 * headers a 2026-07-28 request to /mcp must send, and the hub's quota headers on each of its answers that sends
 * them; 1.7.0 declares a file's Vary optional, as a file under 1 KB is sent without it, and describes
 * since's Last-Modified as it is made). Content never moves it, and the document's bytes change
 * only with the contract or the catalogue (docs/api.md, "OpenAPI").
 */
export const API_VERSION = "1.7.0";

const TAGS = [
  { name: "reviews", description: "The reviews: the full dataset, search and incremental fetch." },
  { name: "insights", description: "Aspect sentiment, entities, topics and FAQ computed from the reviews." },
  { name: "feeds", description: "Atom and JSON Feed of the newest reviews; WebSub topics." },
  { name: "websub", description: "The WebSub hub for push updates of the feeds and the dataset." },
  { name: "mcp", description: "Model Context Protocol endpoint for AI assistants." },
  { name: "meta", description: "This document and the health check." },
];

/** Who answers questions about the API: the practice, by default via its reviews home page. */
export interface ApiContact {
  name: string;
  url: string;
  email?: string;
}

export interface OpenApiInput {
  urls: SiteUrls;
  contact?: ApiContact;
  /**
   * The build's dataset: its catalogue and aspect ids become the parameters' `enum`s and name the
   * examples' ids; its reviews are not read, so a new review never changes the document.
   */
  dataset: Pick<ReviewsDataset, "business" | "aspects">;
}

/** The schemas this API declares, and those they reference, in a stable order. */
function componentSchemas(): Record<string, unknown> {
  const components = z.toJSONSchema(z.globalRegistry, {
    target: "draft-2020-12",
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: "any",
    override: dropSafeIntegerBounds,
  }).schemas;
  const wanted = [
    ReviewsDatasetSchema,
    SearchResultSchema,
    SinceResultSchema,
    ApiErrorSchema,
    InvalidRequestSchema,
    InsightsSchema,
    JsonFeedSchema,
    OpenApiDocumentSchema,
    ReadinessSchema,
    LivenessSchema,
    JsonRpcErrorSchema,
  ];
  const ids = new Set<string>();
  const collect = (s: unknown) => {
    for (const m of JSON.stringify(s).matchAll(/#\/components\/schemas\/([A-Za-z0-9_]+)/g)) {
      if (!ids.has(m[1] as string)) {
        ids.add(m[1] as string);
        collect(components[m[1] as string]);
      }
    }
  };
  for (const s of wanted) {
    const id = z.globalRegistry.get(s)?.id as string;
    ids.add(id);
    collect(components[id]);
  }
  return Object.fromEntries(
    [...ids].sort().map((id) => {
      // A `$id` with a fragment is invalid in JSON Schema 2020-12; components are named by their key.
      const { $schema: _drop, $id: _id, ...rest } = components[id] as Record<string, unknown>;
      return [id, rest];
    }),
  );
}

export function buildOpenApi({ urls, contact, dataset }: OpenApiInput): Record<string, unknown> {
  const ex = apiExamples(dataset, urls, API_VERSION);
  return {
    openapi: "3.1.0",
    info: {
      title: "public-reviews API",
      version: API_VERSION,
      description:
        "Read-only public API of verified customer reviews and aspect-based insights. No key, account or SDK is needed; an Authorization header is ignored. JSON fields are snake_case. Every other method on a path described here is answered 405 with an Allow header; a method the server does not know at all (methods are case-sensitive) is 501.",
      license: { name: "MIT", identifier: "MIT" },
      contact: contact ?? { name: "public-reviews", url: urls.home },
    },
    servers: [{ url: urls.base }],
    // Public and read-only: no operation takes credentials.
    security: [],
    tags: TAGS,
    paths: {
      ...apiPaths({ urls, dataset, ex }),
      "/mcp": mcpPathItem,
      ...servicePaths({ urls, dataset, ex }),
    },
    components: { schemas: componentSchemas() },
  };
}
