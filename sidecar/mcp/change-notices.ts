import type { McpServer, ServerNotifier } from "@modelcontextprotocol/server";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { LRUCache } from "lru-cache";
import type { Snapshot } from "../build/snapshot.ts";
import { type Clock, lruOnClock, systemClock, ttlUntil } from "../clock.ts";
import { insightsUri } from "./insights.ts";
import { rpcErrorResponse } from "./legacy-sessions.ts";
import { datasetUri, reviewUri } from "./resources.ts";

/**
 * "The reviews changed" for MCP clients, driven by the snapshot swap that follows every publish.
 * 2026-07-28 clients get `notifications/resources/updated` on their `subscriptions/listen` stream
 * (the SDK handler's notifier filters by each stream's URIs); 2025-era session clients get it on
 * their session's GET stream for the URIs they `resources/subscribe`d.
 *
 * Subscriptions and GET streams of 2025 sessions live in this process (a session's GET stream and
 * its subscribe calls must reach the same instance). Both are bounded: at most `maxSessions`
 * sessions with subscriptions (the least recently used is forgotten first), 64 URIs each, and
 * at most `maxStreams` open streams (one per session: a second GET replaces the first).
 */

const MAX_URIS_PER_SESSION = 64;

interface Subscription {
  uris: Set<string>;
}

interface Stream {
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  /** Cancels the timer that ends the stream when its session expires. */
  cancelTimer: () => void;
}

export interface ChangeNoticesOptions {
  baseUrl: string;
  maxSessions: number;
  maxStreams: number;
  keepAliveMs: number;
  /** A fresh server for a session's GET stream (the SDK sends notifications through it). */
  createServer(): McpServer;
  /** The 2026-07-28 handler's notifier. */
  modern: ServerNotifier;
  clock?: Clock;
}

/** URIs whose content differs between two builds. */
export function changedUris(prev: Snapshot, next: Snapshot, baseUrl: string): string[] {
  if (prev.version === next.version) return [];
  const uris = [datasetUri(baseUrl), insightsUri(baseUrl)];
  const before = new Map(prev.index.dataset.reviews.map((r) => [r.id, JSON.stringify(r)]));
  for (const r of next.index.dataset.reviews) {
    if (before.get(r.id) !== JSON.stringify(r)) uris.push(reviewUri(r.id));
    before.delete(r.id);
  }
  for (const id of before.keys()) uris.push(reviewUri(id));
  return uris;
}

const OPENED = new TextEncoder().encode(": stream open\n\n");

/**
 * The SDK's GET stream writes nothing until there is a message or a keep-alive (15 s), and the
 * HTTP headers go out with the first byte, so a client would wait that long for its 200. An SSE
 * comment, which clients ignore, sends them at once.
 */
function withOpeningComment(response: Response): Response {
  if (!response.body) return response;
  const opened = new TransformStream<Uint8Array, Uint8Array>({ start: (c) => c.enqueue(OPENED) });
  return new Response(response.body.pipeThrough(opened), { status: response.status, headers: response.headers });
}

export class ChangeNotices {
  #opts: ChangeNoticesOptions;
  /**
   * Each session's subscriptions until the session expires: at most `maxSessions`, the least
   * recently used dropped first when a new session subscribes.
   */
  #subs: LRUCache<string, Subscription>;
  #streams = new Map<string, Stream>();
  #clock: Clock;

  constructor(opts: ChangeNoticesOptions) {
    this.#opts = opts;
    this.#clock = opts.clock ?? systemClock;
    this.#subs = new LRUCache({ max: opts.maxSessions, ...lruOnClock(this.#clock) });
  }

  get openStreams(): number {
    return this.#streams.size;
  }

  /** `resources/subscribe` of a 2025 session; false when the session already has the most URIs allowed. */
  subscribe(sessionId: string, exp: number, uri: string): boolean {
    let sub = this.#subs.get(sessionId);
    if (!sub) {
      const ttl = ttlUntil(exp, this.#clock.now());
      if (ttl === undefined) return true;
      sub = { uris: new Set() };
      this.#subs.set(sessionId, sub, { ttl });
    }
    if (!sub.uris.has(uri) && sub.uris.size >= MAX_URIS_PER_SESSION) return false;
    sub.uris.add(uri);
    return true;
  }

  unsubscribe(sessionId: string, uri: string): void {
    this.#subs.get(sessionId)?.uris.delete(uri);
  }

  /** Serves a 2025 session's GET: an SSE stream the SDK writes notifications to, until `exp`. */
  async openStream(sessionId: string, exp: number, request: Request): Promise<Response> {
    // A client that reconnects (its old connection may not have been seen to drop) replaces its stream.
    this.#closeStream(sessionId);
    if (this.#streams.size >= this.#opts.maxStreams) {
      return rpcErrorResponse(503, -32000, "Service Unavailable: too many open streams; try again later");
    }
    const server = this.#opts.createServer();
    const transport = new WebStandardStreamableHTTPServerTransport({ keepAliveMs: this.#opts.keepAliveMs });
    const forget = () => {
      if (this.#streams.get(sessionId)?.transport === transport) this.#closeStream(sessionId);
    };
    transport.onclose = forget;
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    if (response.status !== 200) {
      await server.close();
      return response;
    }
    const cancelTimer = this.#clock.setTimer(() => this.#closeStream(sessionId), exp - this.#clock.now());
    this.#streams.set(sessionId, { server, transport, cancelTimer });
    // The client went away: free its place at once rather than at the session's expiry.
    request.signal.addEventListener("abort", forget, { once: true });
    return withOpeningComment(response);
  }

  /** A session ended (DELETE): close its stream and forget what it subscribed to. */
  endSession(sessionId: string): void {
    this.#subs.delete(sessionId);
    this.#closeStream(sessionId);
  }

  #closeStream(sessionId: string): void {
    const stream = this.#streams.get(sessionId);
    if (!stream) return;
    this.#streams.delete(sessionId);
    stream.cancelTimer();
    void stream.server.close().catch(() => undefined);
  }

  /** Tells every subscriber about `uris`. */
  async publish(uris: readonly string[]): Promise<void> {
    const sends: Promise<void>[] = [];
    for (const uri of uris) {
      this.#opts.modern.resourceUpdated(uri);
      for (const [sessionId, stream] of this.#streams) {
        if (!this.#subs.get(sessionId)?.uris.has(uri)) continue;
        sends.push(stream.server.server.sendResourceUpdated({ uri }).catch(() => this.endSession(sessionId)));
      }
    }
    await Promise.all(sends);
  }

  /** Closes every open 2025 stream (shutdown). */
  async close(): Promise<void> {
    const streams = [...this.#streams.values()];
    this.#streams.clear();
    for (const s of streams) s.cancelTimer();
    await Promise.all(streams.map((s) => s.server.close().catch(() => undefined)));
  }
}
