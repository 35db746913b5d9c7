import { type McpServer, ResourceNotFoundError, ResourceTemplate } from "@modelcontextprotocol/server";
import type { Snapshot } from "../build/snapshot.ts";

/**
 * Datasets exposed through `resources/list` and `resources/read`, and one resource per review.
 * A dataset's URI is the public URL of the same document (`{BASE_URL}/reviews.json`): one name for
 * one document, whichever door a client uses. Reviews get their own scheme, `reviews://{id}`, which
 * an assistant can re-read as JSON; the record's `url` is the review's page (`/reviews/{id}/`), the
 * address to cite to a person.
 */

export interface ResourceDeps {
  /** The request's pinned snapshot. */
  snapshot: Snapshot;
  baseUrl: string;
}

const JSON_TYPE = "application/json";

export const REVIEW_SCHEME = "reviews://";
export const REVIEW_URI_TEMPLATE = `${REVIEW_SCHEME}{id}`;

export function reviewUri(id: string): string {
  return `${REVIEW_SCHEME}${id}`;
}

/** What follows `reviews://` in `uri`, as written (not decoded); undefined for any other URI. */
export function reviewUriId(uri: string): string | undefined {
  return uri.startsWith(REVIEW_SCHEME) ? uri.slice(REVIEW_SCHEME.length) : undefined;
}

/** The dataset URI as the SDK compares it: `new URL(requested).href` must equal the registered string. */
export function datasetUri(baseUrl: string): string {
  return new URL(`${baseUrl}/reviews.json`).href;
}

// Serialising a large dataset for every read would be wasteful; a snapshot never changes.
const datasetText = new WeakMap<Snapshot, string>();

function serialisedDataset(snapshot: Snapshot): string {
  let text = datasetText.get(snapshot);
  if (text === undefined) {
    text = JSON.stringify(snapshot.index.dataset);
    datasetText.set(snapshot, text);
  }
  return text;
}

/**
 * Every review id starting with `prefix`, in dataset order (newest first), not only the first 100:
 * the SDK sends the first 100 (the spec's cap on `values`) and counts them all into `total` and
 * `hasMore`, so a cut here would tell the client that nothing more matches.
 */
export function completeReviewIds(snapshot: Snapshot, prefix: string): string[] {
  const out: string[] = [];
  for (const r of snapshot.index.dataset.reviews) if (r.id.startsWith(prefix)) out.push(r.id);
  return out;
}

/**
 * The review id a `reviews://` URI names, percent-decoded; "" (no review has it) when an escape is
 * malformed (`%ZZ`, a cut UTF-8 sequence), so such a URI is unknown rather than a server fault.
 */
function decodedId(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return "";
  }
}

/**
 * The `reviews://{id}` template of a snapshot, made once: servers are built per request, and the
 * template (its parsed URI template and completion callback) holds nothing of any one of them.
 */
const templates = new WeakMap<Snapshot, ResourceTemplate>();

function reviewTemplate(snapshot: Snapshot): ResourceTemplate {
  let template = templates.get(snapshot);
  if (template === undefined) {
    // No list callback: listing 10,000 reviews as resources helps no client; completion finds ids.
    // The SDK looks a completer up by the argument name the client sends: with no prototype,
    // `__proto__` or `toString` finds none (an empty completion) rather than Object's members.
    const complete = Object.assign(Object.create(null), { id: (value: string) => completeReviewIds(snapshot, value) });
    template = new ResourceTemplate(REVIEW_URI_TEMPLATE, { list: undefined, complete });
    templates.set(snapshot, template);
  }
  return template;
}

export function registerDatasetResources(server: McpServer, { snapshot, baseUrl }: ResourceDeps): void {
  server.registerResource(
    "reviews-dataset",
    datasetUri(baseUrl),
    {
      title: "Reviews dataset",
      description:
        "The whole published dataset, as served at /reviews.json: business profile, aggregate rating and every " +
        "review (newest first). Large; prefer search_reviews for questions about a subset.",
      mimeType: JSON_TYPE,
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: serialisedDataset(snapshot) }] }),
  );

  server.registerResource(
    "review",
    reviewTemplate(snapshot),
    {
      title: "One review",
      description:
        "One review by id as JSON, the same record as in /reviews.json and get_review, e.g. " +
        "reviews://2024-03-14-maria-g. Its `url` is the review's page on the site, to cite. Ids complete from any prefix.",
      mimeType: JSON_TYPE,
    },
    (uri, { id }) => {
      const review = typeof id === "string" ? snapshot.index.byId(decodedId(id)) : undefined;
      if (!review) throw new ResourceNotFoundError(uri.href, `No review has the URI ${uri.href}`);
      return { contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify(review) }] };
    },
  );
}
