import { createHash } from "node:crypto";
import path from "node:path";
import PQueue from "p-queue";
import type { Logger } from "pino";
import type { Agent } from "undici";
import { TOPIC_PATHS } from "../../src/lib/site.ts";
import { describeRefusal, forbiddenCategory } from "./callback-guard.ts";
import { type Clock, systemClock } from "./clock.ts";
import { type CurrentTopic, Distributor, logUrl } from "./distributor.ts";
import { createHubAgent } from "./http-client.ts";
import type { SubscriptionRequest } from "./hub-schema.ts";
import { HubStore, STORE_FILE, type Verification } from "./hub-store.ts";
import type { HubAnswer, HubConfig, HubDeps, PublishResult, TopicPublish } from "./hub-types.ts";
import { applyVerified, grantLease, type Limits, refusalFor } from "./subscription-rules.ts";
import { distTopicReader, type TopicReader } from "./topic-source.ts";
import { sendDenied, verifyIntent } from "./verify.ts";

export type { HubAnswer, HubConfig, HubDeps, PublishResult, TopicPublish } from "./hub-types.ts";

interface Running {
  store: HubStore;
  agent: Agent;
  distributor: Distributor;
}

/**
 * The WebSub hub: accepts (un)subscription requests, verifies intent, and distributes each topic's
 * content to its subscribers when it changes. Long-lived: it owns the SQLite store, the HTTP agent,
 * one p-queue bounding all outbound requests (verifications and deliveries), and the lease timer.
 * Every queued job re-reads its row first, so the store, not memory, decides what is owed.
 */
export class Hub {
  /** The three topic URLs: `{BASE_URL}/feed.xml`, `/api/feed.json`, `/reviews.json`. */
  readonly topics: readonly string[];
  readonly #config: HubConfig;
  readonly #log: Logger;
  readonly #clock: Clock;
  readonly #readTopic: TopicReader;
  readonly #onPublish: HubDeps["onPublish"];
  readonly #limits: Limits;
  readonly #paths = new Map<string, string>();
  readonly #queue: PQueue;
  readonly #abort = new AbortController();
  readonly #content = new Map<string, CurrentTopic>();
  readonly #jobs = new Set<Promise<unknown>>();
  #run: Running | undefined;
  #closed = false;
  #publishing: Promise<unknown> = Promise.resolve();
  #cancelSweep: (() => void) | undefined;

  constructor(deps: HubDeps) {
    this.#config = deps.config;
    this.#log = deps.logger.child({ component: "websub-hub" });
    this.#clock = deps.clock ?? systemClock;
    this.#readTopic = deps.readTopic ?? distTopicReader(deps.config.DIST_DIR);
    this.#onPublish = deps.onPublish;
    this.#limits = { maxSubscriptions: deps.config.HUB_MAX_SUBSCRIPTIONS, maxPerHost: deps.config.HUB_MAX_PER_HOST };
    this.#queue = new PQueue({ concurrency: deps.config.HUB_CONCURRENCY });
    for (const p of TOPIC_PATHS) this.#paths.set(new URL(`${deps.config.BASE_URL}${p}`).href, p);
    this.topics = [...this.#paths.keys()];
  }

  get running(): boolean {
    return this.#run !== undefined && !this.#closed;
  }

  /** The canonical topic URL for `raw`, or `undefined` when it is not one of this hub's topics. */
  topicOf(raw: string): string | undefined {
    try {
      const href = new URL(raw).href;
      return this.#paths.has(href) ? href : undefined;
    } catch {
      return undefined;
    }
  }

  /** Opens `DATA_DIR/hub.sqlite`, reads the topics, and resumes owed deliveries and pending verifications. */
  async start(): Promise<void> {
    if (this.#run || this.#closed) throw new Error("Hub.start() can only be called once");
    const store = new HubStore(path.join(this.#config.DATA_DIR, STORE_FILE));
    const timeoutMs = this.#config.HUB_DELIVERY_TIMEOUT_MS;
    const agent = createHubAgent({ timeoutMs, allowPrivate: this.#config.HUB_ALLOW_PRIVATE_CALLBACKS });
    const distributor = new Distributor({
      store,
      dispatcher: agent,
      queue: this.#queue,
      clock: this.#clock,
      log: this.#log,
      hubUrl: this.#config.hubUrl,
      timeoutMs,
      retryBaseMs: this.#config.HUB_RETRY_BASE_MS,
      signal: this.#abort.signal,
      current: (topic) => this.#content.get(topic),
      track: (job) => this.#track(job),
    });
    this.#run = { store, agent, distributor };
    this.#sweep();
    await this.#serialise(() => this.#reload(this.topics));
    const pending = store.verifications();
    for (const v of pending) this.#queueVerification(v.id);
    this.#log.info({ subscriptions: store.countSubscriptions(), pending: pending.length }, "hub started");
  }

  /**
   * Accepts a validated (un)subscription request, or refuses it with a status and a reason. Acceptance
   * records a pending verification and queues it; the caller answers 202 before it runs.
   */
  request(req: SubscriptionRequest): HubAnswer {
    const run = this.running ? this.#run : undefined;
    if (!run) return { accepted: false, status: 503, reason: "the hub is not running" };
    const topic = this.topicOf(req["hub.topic"]);
    if (!topic) {
      const reason = `hub.topic: must be one of ${this.topics.join(", ")}, got ${JSON.stringify(req["hub.topic"])}`;
      return { accepted: false, status: 400, reason };
    }
    const url = new URL(req["hub.callback"]);
    const literal = this.#config.HUB_ALLOW_PRIVATE_CALLBACKS ? undefined : forbiddenCategory(url.hostname);
    if (literal) {
      const why = describeRefusal(url.hostname, url.hostname, literal);
      return { accepted: false, status: 400, reason: `hub.callback: ${why}; the hub does not call such addresses` };
    }
    if (run.store.countVerifications() >= this.#config.HUB_MAX_SUBSCRIPTIONS) {
      return { accepted: false, status: 503, reason: "too many verifications are pending; try again later" };
    }
    const asked = req["hub.lease_seconds"] === undefined ? undefined : Number(req["hub.lease_seconds"]);
    const lease = grantLease(asked, this.#config.HUB_LEASE_MIN_SECONDS, this.#config.HUB_LEASE_MAX_SECONDS);
    const v = run.store.addVerification({
      mode: req["hub.mode"],
      topic,
      callback: url.href,
      callbackHost: url.hostname,
      secret: req["hub.secret"] ?? null,
      leaseSeconds: req["hub.mode"] === "subscribe" ? lease : null,
      requestedAt: this.#clock.now(),
    });
    this.#log.info({ mode: v.mode, topic, callback: logUrl(v.callback) }, "request accepted; verifying intent");
    this.#queueVerification(v.id);
    return { accepted: true };
  }

  /**
   * Re-reads the given topics (default: all) and notifies every subscriber whose last delivered
   * content differs. Unchanged content notifies nobody, so repeated pings are harmless.
   */
  publish(topics: readonly string[] = this.topics): Promise<PublishResult> {
    if (!this.running) return Promise.reject(new Error("the hub is not running"));
    const run = this.#serialise(() => this.#reload(topics)).then(async (result) => {
      try {
        await this.#onPublish?.(result);
      } catch (err) {
        this.#log.error({ err }, "onPublish callback failed");
      }
      return result;
    });
    this.#track(run);
    return run;
  }

  /** Resolves once no publish, verification or delivery is queued or running (retry timers may remain). */
  async idle(): Promise<void> {
    while (this.#jobs.size > 0) await Promise.allSettled([...this.#jobs]);
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
    this.#run?.distributor.cancelAll();
    await this.idle();
    await this.#run?.agent.destroy();
    this.#run?.store.close();
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

  async #reload(topics: readonly string[]): Promise<PublishResult> {
    this.#sweep();
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
        result.push({ topic, changed: false, owed: 0, missing: true });
        continue;
      }
      const hash = createHash("sha256").update(content.body).digest("hex");
      const changed = this.#content.get(topic)?.hash !== hash;
      this.#content.set(topic, { ...content, hash });
      const owed = run.store.owed(topic, hash);
      for (const sub of owed) run.distributor.schedule(sub);
      result.push({ topic, changed, owed: owed.length });
    }
    this.#log.info({ topics: result }, "topics read");
    return { topics: result };
  }

  #queueVerification(id: number): void {
    const job = this.#queue.add(() => this.#verify(id));
    this.#track(job.catch((err: unknown) => this.#log.error({ err, verification: id }, "verification job failed")));
  }

  async #verify(id: number): Promise<void> {
    const signal = this.#abort.signal;
    const run = this.#run;
    const v = signal.aborted || !run ? undefined : run.store.verification(id);
    if (!run || !v) return;
    const log = { mode: v.mode, topic: v.topic, callback: logUrl(v.callback) };
    this.#sweep();
    // Refuse before verifying when a limit already stands in the way (W3C §5.2 validation).
    const early = v.mode === "subscribe" ? refusalFor(run.store, v, this.#limits) : undefined;
    if (early) {
      run.store.removeVerification(id);
      await this.#deny(v, early);
      return;
    }
    const check = { ...v, leaseSeconds: v.mode === "subscribe" ? (v.leaseSeconds ?? undefined) : undefined };
    const outcome = await verifyIntent(run.agent, check, { timeoutMs: this.#config.HUB_DELIVERY_TIMEOUT_MS, signal });
    // Interrupted by shutdown: the request stays pending and is verified again on the next start.
    if (signal.aborted) return;
    if (!outcome.ok) {
      run.store.removeVerification(id);
      this.#log.info({ ...log, reason: outcome.reason }, "verification of intent failed; request rejected");
      return;
    }
    const ctx = { now: this.#clock.now(), currentHash: this.#content.get(v.topic)?.hash, limits: this.#limits };
    const applied = run.store.transaction(() => applyVerified(run.store, v, ctx));
    if (applied.kind === "denied") {
      await this.#deny(v, applied.reason);
    } else if (applied.kind === "unsubscribed") {
      if (applied.id !== undefined) run.distributor.cancel(applied.id);
      this.#log.info(log, "unsubscribed");
    } else if (applied.kind !== "superseded") {
      this.#armSweep();
      this.#log.info({ ...log, leaseSeconds: v.leaseSeconds }, applied.kind);
    }
  }

  async #deny(v: Verification, reason: string): Promise<void> {
    const run = this.#run as Running;
    const timing = { timeoutMs: this.#config.HUB_DELIVERY_TIMEOUT_MS, signal: this.#abort.signal };
    const sent = await sendDenied(run.agent, { callback: v.callback, topic: v.topic, reason }, timing);
    this.#log.info({ topic: v.topic, callback: logUrl(v.callback), reason, notice: sent }, "request denied");
  }

  /** Removes expired leases (they are never notified) and arms a timer for the next expiry. */
  #sweep(): void {
    const run = this.running ? this.#run : undefined;
    if (!run) return;
    for (const sub of run.store.removeExpired(this.#clock.now())) {
      run.distributor.cancel(sub.id);
      this.#log.info({ topic: sub.topic, callback: logUrl(sub.callback) }, "lease expired; subscription removed");
    }
    this.#armSweep();
  }

  #armSweep(): void {
    this.#cancelSweep?.();
    this.#cancelSweep = undefined;
    const next = this.running ? this.#run?.store.nextExpiry() : undefined;
    if (next === undefined) return;
    this.#cancelSweep = this.#clock.setTimer(() => this.#sweep(), Math.max(0, next - this.#clock.now()));
  }
}
