import { createHash } from "node:crypto";
import { setMaxListeners } from "node:events";
import PQueue from "p-queue";
import type { Logger } from "pino";
import { hubRefusal, type SubscriptionRequest } from "../../src/api/hub-request.ts";
import { TOPIC_PATHS } from "../../src/urls.ts";
import { type Clock, systemClock } from "../clock.ts";
import { type HubBackend, openHubBackend } from "./backend.ts";
import { describeRefusal, forbiddenCategory } from "./callback-guard.ts";
import { callbackForms, callbackHost } from "./callback-url.ts";
import { logUrl, type Offer } from "./deliveries.ts";
import { sentTo, type Verification } from "./store.ts";
import { applyVerified, grantLease, type Limits, pendingRefusal, refusalFor } from "./subscription-rules.ts";
import type { TopicReader } from "./topic-source.ts";
import { topicKey } from "./topic-url.ts";
import type { HubAnswer, HubConfig, HubDeps, PublishResult, TopicPublish } from "./types.ts";
import { claimMs, VerificationQueue, verificationSeconds } from "./verification-claims.ts";
import { sendDenied, verifyIntent } from "./verify.ts";

export type { HubAnswer, HubConfig, HubDeps, PublishResult, TopicPublish } from "./types.ts";

/**
 * The WebSub hub: accepts (un)subscription requests, verifies intent, and distributes each topic's
 * content to its subscribers when it changes. Long-lived: it owns the store (SQLite, or PostgreSQL
 * shared with other instances when `deps.database` is given), the HTTP agent, one p-queue bounding
 * this process's outbound requests, the deliveries (in process, or pg-boss jobs), and the lease
 * timer. Every job re-reads its row first, so the store, not memory, decides what is owed.
 */
export class Hub {
  /** The three topic URLs: `{BASE_URL}/feed.xml`, `/api/feed.json`, `/reviews.json`. */
  readonly topics: readonly string[];
  readonly #config: HubConfig;
  readonly #log: Logger;
  readonly #clock: Clock;
  readonly #readTopic: TopicReader;
  readonly #limits: Limits;
  readonly #paths = new Map<string, string>();
  /** Each topic by the form a topic URL is compared in (topic-url.ts). */
  readonly #keys = new Map<string, string>();
  readonly #queue: PQueue;
  readonly #abort = new AbortController();
  readonly #database: HubDeps["database"];
  readonly #jobs = new Set<Promise<unknown>>();
  readonly #verifications: VerificationQueue;
  #run: HubBackend | undefined;
  #closed = false;
  #publishing: Promise<unknown> = Promise.resolve();
  #cancelSweep: (() => void) | undefined;

  constructor(deps: HubDeps) {
    this.#config = deps.config;
    this.#log = deps.logger.child({ component: "websub-hub" });
    this.#clock = deps.clock ?? systemClock;
    this.#readTopic = deps.readTopic;
    this.#database = deps.database;
    this.#limits = { maxSubscriptions: deps.config.HUB_MAX_SUBSCRIPTIONS, maxPerHost: deps.config.HUB_MAX_PER_HOST };
    this.#queue = new PQueue({ concurrency: deps.config.HUB_CONCURRENCY });
    // Every request in flight listens on it (withDeadline), at most HUB_CONCURRENCY of them at once.
    setMaxListeners(deps.config.HUB_CONCURRENCY + 10, this.#abort.signal);
    this.#verifications = new VerificationQueue({
      queue: this.#queue,
      verify: (id) => this.#verify(id),
      track: (job) => this.#track(job),
      clock: this.#clock,
      log: this.#log,
    });
    for (const p of TOPIC_PATHS) this.#paths.set(new URL(`${deps.config.BASE_URL}${p}`).href, p);
    for (const href of this.#paths.keys()) this.#keys.set(topicKey(href) as string, href);
    this.topics = [...this.#paths.keys()];
  }

  get running(): boolean {
    return this.#run !== undefined && !this.#closed;
  }

  /** The canonical topic URL for `raw`, or `undefined` when it is not one of this hub's topics. */
  topicOf(raw: string): string | undefined {
    const key = topicKey(raw);
    return key === undefined ? undefined : this.#keys.get(key);
  }

  /**
   * Opens the store (`DATA_DIR/hub.sqlite`, or the shared database), reads the topics, and resumes
   * owed deliveries and pending verifications.
   */
  async start(): Promise<void> {
    if (this.#run || this.#closed) throw new Error("Hub.start() can only be called once");
    const db = this.#database;
    const backend = await openHubBackend({
      config: this.#config,
      database: db,
      clock: this.#clock,
      log: this.#log,
      signal: this.#abort.signal,
      queue: this.#queue,
      track: (job) => this.#track(job),
    });
    const { store } = backend;
    this.#run = backend;
    await this.#sweep();
    await this.#serialise(() => this.#reload(this.topics));
    const pending = await store.verifications();
    for (const v of pending) this.#verifications.add(v.id);
    // Shared: requests another instance accepted and could not finish are verified here too.
    if (db) this.#verifications.supervise(store, db.superviseSeconds * 1000);
    const subscriptions = await store.countSubscriptions();
    this.#log.info({ subscriptions, pending: pending.length, shared: db !== undefined }, "hub started");
  }

  /** False while the shared database is unreachable: the routes answer 503 with Retry-After. */
  reachable(): Promise<boolean> {
    return this.#database?.reachable() ?? Promise.resolve(true);
  }

  /** Why the hub will not call `callback` (a valid https URL): an IP literal of a private or reserved address. */
  callbackRefusal(callback: string): string | undefined {
    const { hostname } = new URL(callback);
    const literal = this.#config.HUB_ALLOW_PRIVATE_CALLBACKS ? undefined : forbiddenCategory(hostname);
    return literal && `${describeRefusal(hostname, hostname, literal)}, which the hub does not call`;
  }

  /**
   * Accepts a validated (un)subscription request, or refuses it with a status and a reason. Acceptance
   * records a pending verification and queues it; the caller answers 202 before it runs.
   */
  async request(req: SubscriptionRequest): Promise<HubAnswer> {
    const run = this.running ? this.#run : undefined;
    if (!run) return { accepted: false, status: 503, reason: "the hub is not running" };
    const topic = this.topicOf(req["hub.topic"]);
    if (!topic) {
      const message = `must be one of ${this.topics.join(", ")}`;
      return { accepted: false, status: 400, ...hubRefusal("hub.topic", message, req["hub.topic"]) };
    }
    const why = this.callbackRefusal(req["hub.callback"]);
    if (why) return { accepted: false, status: 400, ...hubRefusal("hub.callback", why, req["hub.callback"]) };
    const host = callbackHost(req["hub.callback"]);
    const forms = callbackForms(req["hub.callback"]);
    const busy = await pendingRefusal(run.store, host, { topic, callback: forms.callback }, this.#limits);
    if (busy)
      return { accepted: false, status: 503, reason: busy, retryAfterSeconds: verificationSeconds(this.#config) };
    const asked = req["hub.lease_seconds"] === undefined ? undefined : Number(req["hub.lease_seconds"]);
    const lease = grantLease(asked, this.#config.HUB_LEASE_MIN_SECONDS, this.#config.HUB_LEASE_MAX_SECONDS);
    const v = await run.store.addVerification({
      mode: req["hub.mode"],
      topic,
      givenTopic: req["hub.topic"],
      ...forms,
      callbackHost: host,
      secret: req["hub.secret"] ?? null,
      leaseSeconds: req["hub.mode"] === "subscribe" ? lease : null,
      requestedAt: this.#clock.now(),
    });
    this.#log.info({ mode: v.mode, topic, callback: logUrl(v.callback) }, "request accepted; verifying intent");
    this.#verifications.add(v.id);
    return { accepted: true };
  }

  /**
   * Re-reads the given topics (default: all) and notifies every subscriber whose last delivered
   * content differs. Unchanged content notifies nobody, so repeated pings are harmless.
   */
  publish(topics: readonly string[] = this.topics, opts: Offer = {}): Promise<PublishResult> {
    if (!this.running) return Promise.reject(new Error("the hub is not running"));
    const run = this.#serialise(() => this.#reload(topics, opts));
    this.#track(run);
    return run;
  }

  /** Resolves once no publish, verification or delivery is queued or running (retry timers may remain). */
  async idle(): Promise<void> {
    do {
      while (this.#jobs.size > 0) await Promise.allSettled([...this.#jobs]);
      await this.#run?.deliveries.idle?.();
    } while (this.#jobs.size > 0);
  }

  /**
   * Stops: aborts in-flight requests (an aborted delivery is not counted against the subscriber and
   * stays owed; an aborted verification stays pending), cancels timers, waits for jobs to return and
   * closes the store. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#abort.abort();
    this.#cancelSweep?.();
    this.#verifications.stop();
    await this.#run?.deliveries.close();
    while (this.#jobs.size > 0) await Promise.allSettled([...this.#jobs]);
    await this.#run?.agent.destroy();
    await this.#run?.store.close();
  }

  #track(p: Promise<unknown>): void {
    this.#jobs.add(p);
    const done = () => this.#jobs.delete(p);
    p.then(done, done);
  }

  #serialise<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#publishing.then(fn);
    this.#publishing = run.catch(() => undefined);
    return run;
  }

  async #reload(topics: readonly string[], opts: Offer = {}): Promise<PublishResult> {
    await this.#sweep();
    const result: TopicPublish[] = [];
    for (const topic of topics) {
      const sitePath = this.#paths.get(topic);
      if (!sitePath) throw new Error(`not a topic of this hub: ${topic}`);
      // A topic that cannot be read (e.g. a half-written build) is skipped, never fatal to the hub.
      const content = await this.#readTopic(sitePath).catch((err: unknown) => {
        this.#log.error({ err, topic, path: sitePath }, "cannot read topic");
        return undefined;
      });
      const run = this.running ? this.#run : undefined;
      if (!run) break;
      if (!content) {
        this.#log.warn({ topic, path: sitePath }, "topic has no built file; nothing to distribute");
        result.push({ topic, owed: 0, missing: true });
        continue;
      }
      const hash = createHash("sha256").update(content.body).digest("hex");
      const owed = await run.deliveries.offer(topic, { ...content, hash }, opts);
      result.push({ topic, owed });
    }
    this.#log.debug({ topics: result }, "topics read");
    return { topics: result };
  }

  async #verify(id: number): Promise<void> {
    const signal = this.#abort.signal;
    const run = this.#run;
    const now = this.#clock.now();
    const until = now + claimMs(this.#config.HUB_DELIVERY_TIMEOUT_MS);
    const v = signal.aborted || !run ? undefined : await run.store.claimVerification(id, now, until);
    if (!run || !v) return;
    const log = { mode: v.mode, topic: v.topic, callback: logUrl(v.callback) };
    await this.#sweep();
    // Refuse before verifying when a limit already stands in the way (W3C §5.2 validation).
    const early = v.mode === "subscribe" ? await refusalFor(run.store, v, this.#limits) : undefined;
    if (early) {
      await run.store.removeVerification(id);
      await this.#deny(v, early);
      return;
    }
    // The topic echoed and the callback called are as the subscriber sent them (W3C §5.3).
    const leaseSeconds = v.mode === "subscribe" ? (v.leaseSeconds ?? undefined) : undefined;
    const check = { ...v, topic: v.givenTopic ?? v.topic, callback: sentTo(v), leaseSeconds };
    const askedAt = this.#clock.now();
    const outcome = await verifyIntent(run.agent, check, { timeoutMs: this.#config.HUB_DELIVERY_TIMEOUT_MS, signal });
    // Interrupted by shutdown: the request stays pending, for another instance or the next start.
    if (signal.aborted) return run.store.releaseVerification(id);
    if (!outcome.ok) {
      await run.store.removeVerification(id);
      this.#log.info({ ...log, reason: outcome.reason }, "verification of intent failed; request rejected");
      return;
    }
    const ctx = { askedAt, currentHash: await run.deliveries.currentHash(v.topic), limits: this.#limits };
    const applied = await run.store.transaction((tx) => applyVerified(tx, v, { ...ctx, now: this.#clock.now() }));
    if (applied.kind === "denied") {
      await this.#deny(v, applied.reason);
    } else if (applied.kind === "unsubscribed") {
      if (applied.id !== undefined) run.deliveries.cancel?.(applied.id);
      this.#log.info(log, "unsubscribed");
    } else if (applied.kind !== "superseded") {
      await this.#armSweep();
      this.#log.info({ ...log, leaseSeconds: v.leaseSeconds }, applied.kind);
    }
  }

  async #deny(v: Verification, reason: string): Promise<void> {
    const run = this.#run as HubBackend;
    const timing = { timeoutMs: this.#config.HUB_DELIVERY_TIMEOUT_MS, signal: this.#abort.signal };
    const sent = await sendDenied(run.agent, { callback: sentTo(v), topic: v.givenTopic ?? v.topic, reason }, timing);
    this.#log.info({ topic: v.topic, callback: logUrl(v.callback), reason, notice: sent }, "request denied");
  }

  /** Removes expired leases (they are never notified) and arms a timer for the next expiry. */
  async #sweep(): Promise<void> {
    const run = this.running ? this.#run : undefined;
    if (!run) return;
    for (const sub of await run.store.removeExpired(this.#clock.now())) {
      run.deliveries.cancel?.(sub.id);
      this.#log.info({ topic: sub.topic, callback: logUrl(sub.callback) }, "lease expired; subscription removed");
    }
    await this.#armSweep();
  }

  async #armSweep(): Promise<void> {
    const next = this.running ? await this.#run?.store.nextExpiry() : undefined;
    this.#cancelSweep?.();
    this.#cancelSweep = undefined;
    if (next === undefined || !this.running) return;
    const sweep = () =>
      this.#track(this.#sweep().catch((err: unknown) => this.#log.error({ err }, "lease sweep failed")));
    this.#cancelSweep = this.#clock.setTimer(sweep, Math.max(0, next - this.#clock.now()));
  }
}
