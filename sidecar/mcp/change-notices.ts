import type { McpServer, ServerNotifier } from "@modelcontextprotocol/server";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { LRUCache } from "lru-cache";
import { reviewJson } from "../../src/search/result-json.ts";
import type { Snapshot } from "../build/snapshot.ts";
import { type Clock, lruOnClock, systemClock, ttlUntil } from "../clock.ts";
import { insightsUri } from "./insights.ts";
import { datasetUri, reviewUri } from "./resources.ts";
import { streamLimitResponse } from "./stream-limit.ts";

/**
 * "The reviews changed" for MCP clients, driven by the snapshot swap that follows every publish.
 * 2026-07-28 clients get `notifications/resources/updated` on their `subscriptions/listen` stream
 * (the SDK handler's notifier filters by each stream's URIs); 2025-era session clients get it on
 * their session's GET stream for the URIs they `resources/subscribe`d.
 *
 * Subscriptions and GET streams of 2025 sessions live in this process (a session's GET stream and
 * its subscribe calls must reach the same instance). Both are bounded: at most `maxSessions`
 * sessions with subscriptions (the least recently used is forgotten first), 64 URIs each, and
 * at most `maxStreams` open streams in all. An open stream is a use of its session: it is renewed
 * while the client listens, so a change is never held back by an idle timeout, and it closes when
 * the session is found ended (DELETE here, or on another instance at the next renewal). 2025-06-18 lets a client hold several SSE streams at
 * once and requires each message to go out on only one of them ("Multiple Connections"), so a
 * session may open up to `MAX_STREAMS_PER_SESSION` GET streams and each notice goes to its newest.
 */

/**
 * URIs one 2025 session may subscribe to, and one `subscriptions/listen` may name: the SDK's
 * notifier scans each listen's list for every changed URI, so a publish costs changed URIs times
 * open listens times this.
 */
export const MAX_SUBSCRIBED_URIS = 64;

/**
 * GET streams one session may hold. One more GET closes the session's oldest stream rather than
 * being refused: a client that reconnects may not have been seen to drop its old connection.
 */
export const MAX_STREAMS_PER_SESSION = 4;

interface Subscription {
  uris: Set<string>;
}

/** An open stream renews its session at half the time left, and at least this often (ms). */
export const STREAM_RENEW_MS = 60_000;

interface Stream {
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  /** Cancels the stream's next renewal. */
  cancelTimer: () => void;
}

export interface ChangeNoticesOptions {
  baseUrl: string;
  maxSessions: number;
  maxStreams: number;
  keepAliveMs: number;
  /** The session idle timeout: subscriptions of a session not used for this long are forgotten. */
  idleMs: number;
  /**
   * A use of the session on behalf of its open stream: the session's new expiry, or undefined
   * when it has ended (its streams are then closed).
   */
  renew(sessionId: string): Promise<number | undefined>;
  /** A fresh server for a session's GET stream (the SDK sends notifications through it). */
  createServer(): McpServer;
  /** The 2026-07-28 handler's notifier. */
  modern: ServerNotifier;
  clock?: Clock;
}

/**
 * URIs whose content differs between two builds. Each review is compared by the JSON bytes both
 * snapshots made when they loaded (`reviewJson`), not serialised again: that was 60 ms of the
 * event loop after every save at 10,000 reviews.
 */
export function changedUris(prev: Snapshot, next: Snapshot, baseUrl: string): string[] {
  if (prev.version === next.version) return [];
  const uris = [datasetUri(baseUrl), insightsUri(baseUrl)];
  const before = new Map(prev.index.dataset.reviews.map((r) => [r.id, reviewJson(r)]));
  for (const r of next.index.dataset.reviews) {
    if (!before.get(r.id)?.equals(reviewJson(r))) uris.push(reviewUri(r.id));
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
  /** Each session's open GET streams, oldest first. */
  #streams = new Map<string, Stream[]>();
  #open = 0;
  #clock: Clock;

  constructor(opts: ChangeNoticesOptions) {
    this.#opts = opts;
    this.#clock = opts.clock ?? systemClock;
    this.#subs = new LRUCache({ max: opts.maxSessions, ...lruOnClock(this.#clock) });
  }

  get openStreams(): number {
    return this.#open;
  }

  /**
   * `resources/subscribe` of a 2025 session, which was used just now; false when the session
   * already has the most URIs allowed.
   */
  subscribe(sessionId: string, uri: string): boolean {
    let sub = this.#subs.get(sessionId);
    if (!sub) {
      sub = { uris: new Set() };
      // At the cap, expired sessions go before the least recently used live one (a scan, only when full).
      if (this.#subs.size >= this.#subs.max) this.#subs.purgeStale();
      this.#subs.set(sessionId, sub, { ttl: this.#opts.idleMs });
    }
    if (!sub.uris.has(uri) && sub.uris.size >= MAX_SUBSCRIBED_URIS) return false;
    sub.uris.add(uri);
    return true;
  }

  /** A use of the session: its subscriptions are kept until its new expiry. */
  touch(sessionId: string, expiresAt: number): void {
    const sub = this.#subs.get(sessionId);
    const ttl = ttlUntil(expiresAt, this.#clock.now());
    if (sub && ttl !== undefined) this.#subs.set(sessionId, sub, { ttl });
  }

  unsubscribe(sessionId: string, uri: string): void {
    this.#subs.get(sessionId)?.uris.delete(uri);
  }

  /**
   * Serves a 2025 session's GET: an SSE stream the SDK writes notifications to, renewing the
   * session (which expires at `expiresAt` unless used) while it is open.
   */
  async openStream(sessionId: string, expiresAt: number, request: Request): Promise<Response> {
    const own = this.#streams.get(sessionId);
    if (own && own.length >= MAX_STREAMS_PER_SESSION) this.#closeStream(sessionId, own[0] as Stream);
    if (this.#open >= this.#opts.maxStreams) return streamLimitResponse(this.#opts.maxStreams);
    const server = this.#opts.createServer();
    const transport = new WebStandardStreamableHTTPServerTransport({ keepAliveMs: this.#opts.keepAliveMs });
    let stream: Stream | undefined;
    const forget = () => {
      if (!stream || !this.#streams.get(sessionId)?.includes(stream)) return;
      this.#closeStream(sessionId, stream);
      // The client hung up (not a DELETE, a newer stream or shutdown, which close it from here):
      // a use, so the session expires the idle timeout after the close, not after the stream's
      // last renewal, up to a minute (or half the timeout) before it.
      if (request.signal.aborted) void this.#opts.renew(sessionId).catch(() => undefined);
    };
    transport.onclose = forget;
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    if (response.status !== 200) {
      await server.close();
      return response;
    }
    stream = { server, transport, cancelTimer: () => undefined };
    this.#renewAt(sessionId, stream, expiresAt);
    const list = this.#streams.get(sessionId) ?? [];
    list.push(stream);
    this.#streams.set(sessionId, list);
    this.#open++;
    // The client went away: free its place at once rather than at the session's expiry.
    request.signal.addEventListener("abort", forget, { once: true });
    return withOpeningComment(response);
  }

  /** Renews the session of `stream` before `expiresAt`, and again after each renewal, until it has ended. */
  #renewAt(sessionId: string, stream: Stream, expiresAt: number): void {
    const delay = Math.min(STREAM_RENEW_MS, Math.floor((expiresAt - this.#clock.now()) / 2));
    stream.cancelTimer = this.#clock.setTimer(() => {
      if (!this.#streams.get(sessionId)?.includes(stream)) return;
      this.#opts.renew(sessionId).then(
        (next) => {
          if (!this.#streams.get(sessionId)?.includes(stream)) return;
          if (next === undefined) return this.endSession(sessionId);
          this.touch(sessionId, next);
          this.#renewAt(sessionId, stream, next);
        },
        () => this.#renewAt(sessionId, stream, this.#clock.now() + 2 * STREAM_RENEW_MS),
      );
    }, delay);
  }

  /** A session ended (DELETE): close its streams and forget what it subscribed to. */
  endSession(sessionId: string): void {
    this.#subs.delete(sessionId);
    for (const stream of [...(this.#streams.get(sessionId) ?? [])]) this.#closeStream(sessionId, stream);
  }

  #closeStream(sessionId: string, stream: Stream): void {
    const list = this.#streams.get(sessionId);
    const at = list?.indexOf(stream) ?? -1;
    if (!list || at < 0) return;
    list.splice(at, 1);
    if (list.length === 0) this.#streams.delete(sessionId);
    this.#open--;
    stream.cancelTimer();
    void stream.server.close().catch(() => undefined);
  }

  /** Sends one notice on the session's newest stream; a stream that fails is closed and the next tried. */
  async #deliver(sessionId: string, uri: string): Promise<void> {
    for (let list = this.#streams.get(sessionId); list && list.length > 0; list = this.#streams.get(sessionId)) {
      const stream = list[list.length - 1] as Stream;
      try {
        await stream.server.server.sendResourceUpdated({ uri });
        return;
      } catch {
        this.#closeStream(sessionId, stream);
      }
    }
  }

  /** Tells every subscriber about `uris`. */
  async publish(uris: readonly string[]): Promise<void> {
    const sends: Promise<void>[] = [];
    for (const uri of uris) {
      this.#opts.modern.resourceUpdated(uri);
      for (const sessionId of this.#streams.keys()) {
        if (this.#subs.get(sessionId)?.uris.has(uri)) sends.push(this.#deliver(sessionId, uri));
      }
    }
    await Promise.all(sends);
  }

  /** Closes every open 2025 stream (shutdown). */
  async close(): Promise<void> {
    const streams = [...this.#streams.values()].flat();
    this.#streams.clear();
    this.#open = 0;
    for (const s of streams) s.cancelTimer();
    await Promise.all(streams.map((s) => s.server.close().catch(() => undefined)));
  }
}
