import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Snapshot, SnapshotStore } from "../build/snapshot.ts";

/**
 * Datasets exposed through `resources/list` and `resources/read`. Each resource's URI is the public
 * URL of the same document (`{BASE_URL}/reviews.json`): one name for one document, whichever door
 * a client uses, and the MCP spec's meaning of an https URI — a client may also fetch it directly.
 */

export interface ResourceDeps {
  store: SnapshotStore;
  baseUrl: string;
}

const JSON_TYPE = "application/json";

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

export function registerDatasetResources(server: McpServer, { store, baseUrl }: ResourceDeps): void {
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
    (uri) => ({ contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: serialisedDataset(store.current) }] }),
  );
}
