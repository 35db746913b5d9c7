import type PQueue from "p-queue";
import type { Logger } from "pino";
import type { Dispatcher } from "undici";
import type { Clock } from "../clock.ts";
import type { Deliveries } from "./deliveries.ts";
import { Distributor } from "./delivery-retries.ts";
import { createHubAgent } from "./http-client.ts";
import { PgHubStore } from "./pg-store.ts";
import { QueueDeliveries } from "./queue-deliveries.ts";
import { SqliteHubStore } from "./sqlite-store.ts";
import type { HubStore } from "./store.ts";
import type { HubConfig, HubDatabase } from "./types.ts";

export interface HubBackend {
  store: HubStore;
  agent: Dispatcher;
  deliveries: Deliveries;
}

/**
 * The hub's engines, chosen once: with a shared database, the PostgreSQL store and pg-boss
 * deliveries; without, SQLite in DATA_DIR and the in-process distributor on the hub's clock.
 */
export async function openHubBackend(opts: {
  config: HubConfig;
  database: HubDatabase | undefined;
  clock: Clock;
  log: Logger;
  signal: AbortSignal;
  queue: PQueue;
  track: (job: Promise<unknown>) => void;
}): Promise<HubBackend> {
  const { config, database: db } = opts;
  const store = db ? new PgHubStore(db.pool) : SqliteHubStore.open(config.DATA_DIR);
  const timeoutMs = config.HUB_DELIVERY_TIMEOUT_MS;
  const agent = createHubAgent({
    timeoutMs,
    allowPrivate: config.HUB_ALLOW_PRIVATE_CALLBACKS,
    baseUrl: config.BASE_URL,
  });
  const common = {
    store,
    dispatcher: agent,
    clock: opts.clock,
    log: opts.log,
    hubUrl: config.hubUrl,
    timeoutMs,
    retryBaseMs: config.HUB_RETRY_BASE_MS,
    signal: opts.signal,
    queue: opts.queue,
  };
  const deliveries = db
    ? await QueueDeliveries.start({ ...common, ...db, concurrency: config.HUB_CONCURRENCY })
    : new Distributor({ ...common, track: opts.track });
  return { store, agent, deliveries };
}
