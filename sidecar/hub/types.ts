import type pg from "pg";
import type { Logger } from "pino";
import type { Config } from "../../src/config.ts";
import type { QueryIssue } from "../../src/search/query.ts";
import type { Clock } from "../clock.ts";
import type { TopicReader } from "./topic-source.ts";

/** What the Hub needs and what it answers; kept apart so routes and the app can import types only. */

export type HubConfig = Pick<
  Config,
  | "BASE_URL"
  | "DATA_DIR"
  | "DIST_DIR"
  | "hubUrl"
  | "HUB_ALLOW_PRIVATE_CALLBACKS"
  | "HUB_RETRY_BASE_MS"
  | "HUB_DELIVERY_TIMEOUT_MS"
  | "HUB_MAX_SUBSCRIPTIONS"
  | "HUB_MAX_PER_HOST"
  | "HUB_LEASE_MIN_SECONDS"
  | "HUB_LEASE_MAX_SECONDS"
  | "HUB_CONCURRENCY"
>;

/** Shared state for several instances: the hub keeps its store and delivery jobs in PostgreSQL. */
export interface HubDatabase {
  pool: pg.Pool;
  /** The same database, for pg-boss's own pool. */
  url: string;
  /** Answers quickly whether the database is reachable now (readiness, 503 on the hub). */
  reachable(): Promise<boolean>;
  /** How often pg-boss looks for jobs, and the hub for verifications, whose instance died mid-run (seconds). */
  superviseSeconds: number;
}

export interface HubDeps {
  config: HubConfig;
  logger: Logger;
  /** Default: the system clock. */
  clock?: Clock;
  /** Where topics are read: the sidecar's served snapshot (topic-source.ts). */
  readTopic: TopicReader;
  /** Share state with other instances through PostgreSQL; without it, SQLite in DATA_DIR. */
  database?: HubDatabase;
}

export type HubAnswer =
  | { accepted: true }
  | { accepted: false; status: 400; reason: string; issue: QueryIssue }
  /** `retryAfterSeconds`: when a wait is known, the Retry-After of the 503 (RFC 9110 §10.2.3). */
  | { accepted: false; status: 503; reason: string; retryAfterSeconds?: number };

export interface TopicPublish {
  topic: string;
  /** Subscriptions owed this content, now queued or waiting out a retry backoff. */
  owed: number;
  /** The build has no file for this topic; nothing was sent. */
  missing?: true;
}
export interface PublishResult {
  topics: TopicPublish[];
}
