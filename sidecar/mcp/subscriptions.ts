import { type McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { Id, MAX_ID_LENGTH } from "../../src/content/schema.ts";
import type { Snapshot } from "../build/snapshot.ts";
import { type ChangeNotices, MAX_SUBSCRIBED_URIS } from "./change-notices.ts";
import { insightsUri } from "./insights.ts";
import { idOf } from "./messages.ts";
import { datasetUri, REVIEW_URI_TEMPLATE, reviewUri, reviewUriId } from "./resources.ts";
import { rpcErrorResponse } from "./rpc-error.ts";

/**
 * `resources/subscribe` of a 2025 session: recorded in `ChangeNotices`, delivered on the
 * session's GET stream. Only a URI a change notice can name is kept: one of the two datasets, or
 * `reviews://{id}` of a review that exists, written as `changedUris` writes it. So a session holds
 * at most 64 URIs of a bounded length, and a subscription that could never be notified (a typo,
 * another spelling of the URI) is refused at once rather than kept in silence.
 */

export interface SubscriptionDeps {
  /** The session, found live and used before the request got here (LegacySessions). */
  sessionId: string;
  notices: ChangeNotices;
  /** The request's pinned snapshot: the reviews that exist. */
  snapshot: Snapshot;
  baseUrl: string;
}

/**
 * Why `uri` cannot be subscribed to, as a -32602 error, or undefined when it can; `where` names
 * the parameter that held it.
 */
export function unsubscribable(
  uri: string,
  snapshot: Snapshot,
  baseUrl: string,
  where = "resources/subscribe: params.uri",
): ProtocolError | undefined {
  if (uri === datasetUri(baseUrl) || uri === insightsUri(baseUrl)) return undefined;
  const id = reviewUriId(uri);
  if (id === undefined || !Id.safeParse(id).success) {
    // Not echoed: it may be 60 KB of anything.
    return new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid params for ${where}: expected ${datasetUri(baseUrl)}, ${insightsUri(baseUrl)} ` +
        `or ${REVIEW_URI_TEMPLATE} with a review's id (a-z, 0-9 and single hyphens, at most ${MAX_ID_LENGTH} characters)`,
    );
  }
  if (snapshot.index.byId(id)) return undefined;
  // As resources/read answers it. A new review is announced on the dataset's URI.
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `No review has the URI ${reviewUri(id)}; subscribe to ${datasetUri(baseUrl)} to hear of new reviews`,
    { uri },
  );
}

/**
 * The refusal of a 2026-07-28 `subscriptions/listen` (-32602, as the SDK answers its own params
 * errors, with HTTP 200), or undefined: more URIs than a 2025 session may subscribe to, or its
 * first URI that `unsubscribable` refuses. The SDK acknowledges every URI it is given, so a typo
 * was answered with a stream, and an acknowledgement naming it, on which no notice would ever come.
 */
export function listenRefusal(body: unknown, snapshot: Snapshot, baseUrl: string): Response | undefined {
  const uris = (body as { params?: { notifications?: { resourceSubscriptions?: unknown } } } | undefined)?.params
    ?.notifications?.resourceSubscriptions;
  if (!Array.isArray(uris)) return undefined; // not an array: the SDK's own params check refuses it
  if (uris.length > MAX_SUBSCRIBED_URIS) {
    const message =
      `Invalid params for subscriptions/listen: params.notifications.resourceSubscriptions: at most ` +
      `${MAX_SUBSCRIBED_URIS} URIs, got ${uris.length}; listen to ${datasetUri(baseUrl)} to hear of every change`;
    return rpcErrorResponse(200, -32602, message, idOf(body));
  }
  for (const [i, uri] of uris.entries()) {
    if (typeof uri !== "string") return undefined;
    const where = `subscriptions/listen: params.notifications.resourceSubscriptions[${i}]`;
    const refused = unsubscribable(uri, snapshot, baseUrl, where);
    if (!refused) continue;
    return rpcErrorResponse(200, refused.code, refused.message, idOf(body), refused.data);
  }
  return undefined;
}

/** Registers `resources/subscribe` and `resources/unsubscribe` on a 2025 session's server. */
export function addSubscribeHandlers(
  server: McpServer,
  { sessionId, notices, snapshot, baseUrl }: SubscriptionDeps,
): void {
  server.server.setRequestHandler("resources/subscribe", (request) => {
    const refused = unsubscribable(request.params.uri, snapshot, baseUrl);
    if (refused) throw refused;
    if (!notices.subscribe(sessionId, request.params.uri)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Too many subscriptions: at most ${MAX_SUBSCRIBED_URIS} URIs a session`,
      );
    }
    return {};
  });
  server.server.setRequestHandler("resources/unsubscribe", (request) => {
    notices.unsubscribe(sessionId, request.params.uri);
    return {};
  });
}
