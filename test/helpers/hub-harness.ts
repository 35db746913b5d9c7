import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import express from "express";
import pino from "pino";
import { afterAll, beforeAll } from "vitest";
import { Hub, type PublishResult } from "../../sidecar/hub/hub.ts";
import { createHubRouter, type HubRouterOptions } from "../../sidecar/hub/routes.ts";
import { SqliteHubDb, STORE_FILE } from "../../sidecar/hub/sqlite-db.ts";
import type { Subscription, Verification } from "../../sidecar/hub/store.ts";
import { type Config, loadConfig } from "../../src/config.ts";
import { buildManifest, MANIFEST_FILE } from "../../src/http-headers/manifest.ts";
import { siteUrls } from "../../src/urls.ts";
import { distTopicReader } from "./dist-topic-reader.ts";
import { currentBackend, openHubDatabase } from "./hub-backends.ts";
import { ManualClock } from "./manual-clock.ts";

export const BASE_URL = "https://reviews.example.test";
export const TOPICS = {
  atom: `${BASE_URL}/feed.xml`,
  json: `${BASE_URL}/api/feed.json`,
  reviews: `${BASE_URL}/reviews.json`,
} as const;

const PATHS: Record<string, string> = {
  [TOPICS.atom]: "/feed.xml",
  [TOPICS.json]: "/api/feed.json",
  [TOPICS.reviews]: "/reviews.json",
};

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  dataDir?: string;
  distDir?: string;
  clock?: ManualClock;
  /** Told the result of each publish ping the default `publish` starts. */
  onPublish?: (result: PublishResult) => void;
  /** How the router accepts a publish ping (the sidecar's durable queue); default: start `hub.publish` and answer at once. */
  publish?: HubRouterOptions["publish"];
}

export interface Harness {
  hub: Hub;
  config: Config;
  clock: ManualClock;
  /** `http://127.0.0.1:<port>/api/websub/hub` on a bare Express app with the hub router mounted. */
  endpoint: string;
  dataDir: string;
  distDir: string;
  logs: LogLine[];
  /** POSTs a form (or a raw body with `contentType`) to the hub endpoint. */
  post(
    form: Record<string, string | string[]>,
    contentType?: string,
    raw?: string,
    headers?: Record<string, string>,
  ): Promise<Response>;
  /** Writes a topic file and refreshes `_headers.json` as the build would. */
  writeTopic(topic: string, content: string): Promise<void>;
  /** Reads the store through a second connection (read-only for SQLite, as `npm run hub:list` does). */
  stored(): Promise<Subscription[]>;
  /** Requests accepted and still awaiting verification of intent. */
  pending(): Promise<Verification[]>;
  close(): Promise<void>;
}

/** Writes the three topics (Atom, JSON Feed, dataset) with the build's header manifest. */
export async function writeDist(distDir: string, files: Record<string, string>): Promise<void> {
  const entries = Object.entries(files).map(([p, text]) => ({ path: p, bytes: Buffer.from(text) }));
  for (const { path: p, bytes } of entries) {
    await mkdir(path.dirname(path.join(distDir, p)), { recursive: true });
    await writeFile(path.join(distDir, p), bytes);
  }
  const manifest = buildManifest(entries, { urls: siteUrls(BASE_URL) });
  await writeFile(path.join(distDir, MANIFEST_FILE), JSON.stringify(manifest));
}

async function readStore<T>(dataDir: string, read: (store: SqliteHubDb) => T): Promise<T> {
  const store = new SqliteHubDb(path.join(dataDir, STORE_FILE), { readOnly: true });
  try {
    return read(store);
  } finally {
    store.close();
  }
}

const topicFiles = new Map<string, Map<string, string>>();

/**
 * A running hub on temp directories, with the hub router on a bare Express app listening on port 0
 * and logs captured as parsed pino lines. Private callbacks are allowed unless `env` says
 * otherwise, because the HTTPS subscribers of these tests listen on 127.0.0.1. The store is the
 * one `forEachHubStore` (hub-backends.ts) selected: SQLite in `dataDir`, or a PostgreSQL database
 * of its own per `dataDir` (a restart passes the same `dataDir` and so finds the same state).
 */
export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const dataDir = opts.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), "pr-hub-data-")));
  const distDir = opts.distDir ?? (await mkdtemp(path.join(os.tmpdir(), "pr-hub-dist-")));
  const config = loadConfig({
    BASE_URL,
    DATA_DIR: dataDir,
    DIST_DIR: distDir,
    HUB_ALLOW_PRIVATE_CALLBACKS: "true",
    HUB_RETRY_BASE_MS: "1000",
    HUB_DELIVERY_TIMEOUT_MS: "5000",
    ...opts.env,
  });
  const clock = opts.clock ?? new ManualClock();
  const logs: LogLine[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => logs.push(JSON.parse(line) as LogLine) });
  const shared = await openHubDatabase(currentBackend(), dataDir, logger);
  const hub = new Hub({ config, logger, clock, database: shared?.database, readTopic: distTopicReader(distDir) });
  await hub.start();
  const publish =
    opts.publish ??
    (async (topics: string[]) => {
      hub.publish(topics).then(opts.onPublish, (err: unknown) => logger.error({ err }, "hub publish failed"));
    });
  const app = express();
  app.use(
    "/api/websub/hub",
    createHubRouter(hub, { rateLimitPerMinute: config.HUB_RATE_LIMIT_PER_MINUTE, logger, publish }),
  );
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/websub/hub`;
  const files = topicFiles.get(distDir) ?? new Map<string, string>();
  topicFiles.set(distDir, files);
  return {
    hub,
    config,
    clock,
    endpoint,
    dataDir,
    distDir,
    logs,
    post(form, contentType = "application/x-www-form-urlencoded", raw, headers = {}) {
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
      return fetch(endpoint, {
        method: "POST",
        headers: { "content-type": contentType, ...headers },
        body: raw ?? body.toString(),
      });
    },
    async writeTopic(topic, content) {
      const p = PATHS[topic];
      if (!p) throw new Error(`unknown topic ${topic}`);
      files.set(p, content);
      await writeDist(distDir, Object.fromEntries(files));
    },
    stored: () => (shared ? shared.read((s) => s.subscriptions()) : readStore(dataDir, (s) => s.subscriptions())),
    pending: () => (shared ? shared.read((s) => s.verifications()) : readStore(dataDir, (s) => s.verifications())),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await hub.close();
      await shared?.close();
    },
  };
}

export interface HubChild {
  child: ChildProcess;
  /** Resolves once the child has printed `line` (see hub-child.ts). */
  waitLine(line: string): Promise<void>;
  /** Tells the child to publish the current dist. */
  publish(): void;
}

/** A real hub in a child process (hub-child.ts) on `dataDir`/`distDir`, subscribing `callbacks` to `topic`. */
export function startHubChild(opts: {
  dataDir: string;
  distDir: string;
  topic: string;
  callbacks: string[];
  databaseUrl?: string;
}): HubChild {
  const script = path.join(import.meta.dirname, "hub-child.ts");
  const args = [opts.dataDir, opts.distDir, BASE_URL, opts.topic, JSON.stringify(opts.callbacks)];
  const child = spawn(process.execPath, [script, ...args, ...(opts.databaseUrl ? [opts.databaseUrl] : [])], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines: string[] = [];
  (child.stdout as Readable).setEncoding("utf8").on("data", (d: string) => lines.push(...d.trim().split("\n")));
  return {
    child,
    async waitLine(line) {
      while (!lines.includes(line)) await once(child.stdout as Readable, "data");
    },
    publish: () => child.stdin?.write("publish\n"),
  };
}

/** A valid subscription request's parameters, for tests that spoil one of them. */
export const VALID_SUBSCRIPTION = {
  "hub.mode": "subscribe",
  "hub.topic": TOPICS.atom,
  "hub.callback": "https://sub.example.test/cb",
};

/** One hub for a file's tests, started before them and closed after, with room for many requests. */
export function fileHarness(): { readonly h: Harness } {
  const holder: { h?: Harness } = {};
  beforeAll(async () => {
    holder.h = await startHarness({ env: { HUB_RATE_LIMIT_PER_MINUTE: "1000" } });
  });
  afterAll(async () => {
    await holder.h?.close();
  });
  return {
    get h() {
      return holder.h as Harness;
    },
  };
}

/** A hub answer's status, media type and text. */
export async function answerOf(res: Response) {
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}
