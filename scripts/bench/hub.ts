import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, writeFile } from "node:fs/promises";
import path from "node:path";
import { SqliteHubDb, STORE_FILE } from "../../sidecar/hub/sqlite-db.ts";
import { loadConfig } from "../../src/config.ts";
import { MANIFEST_FILE, strongEtag } from "../../src/http-headers/manifest.ts";
import { readDistFile, readManifest } from "../../src/io/dist-files.ts";
import { ROOT } from "./astro-build.ts";
import { track } from "./children.ts";
import { count, type Figure, MiB } from "./figures.ts";
import { startSubscribers } from "./hub-subscribers.ts";
import { createAuthority, issueServerCert } from "./local-ca.ts";
import { sampleTreeRss } from "./proc-rss.ts";
import type { Profile } from "./profile.ts";
import { type ServerProcess, startServer, stopChild } from "./server-process.ts";
import type { Workspace } from "./workspace.ts";

const BASE_URL = "https://reviews.bench.test";
const TOPIC = `${BASE_URL}/feed.xml`;
const HUB_PATH = "/api/websub/hub";
/** Callback paths are spread over this many HTTPS servers (origins), as real subscribers would be. */
const SUBSCRIBER_SERVERS = 4;
const WAIT_MS = 180_000;

function within<T>(p: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(what())), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

async function until(check: () => boolean, ms: number, what: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(what());
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs `fn` over `items`, `limit` at a time. */
async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

async function postForm(url: string, form: Record<string, string>): Promise<void> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });
  const text = await res.text();
  if (res.status !== 202)
    throw new Error(`POST ${url} ${JSON.stringify(form)}: expected 202, got ${res.status} ${text}`);
}

/**
 * Fan-out of one change of `/feed.xml` to N verified HTTPS subscribers by the real server
 * (`sidecar/start.ts` in a child process that trusts a CA made here via NODE_EXTRA_CA_CERTS),
 * timed from the publish ping until every subscriber has acknowledged, over the time plain undici
 * in another child takes to POST the same body to the same callbacks at the same concurrency.
 */
export async function benchHub(ws: Workspace, p: Profile): Promise<Figure[]> {
  const small = await ws.dist(p.small);
  const middle = await ws.dist(p.middle);
  const dir = await ws.tempDir("hub");
  const ca = createAuthority("public-reviews bench CA");
  const tls = issueServerCert({ dnsNames: ["localhost"], ips: ["127.0.0.1"], issuer: ca });
  const caFile = path.join(dir, "ca.pem");
  await writeFile(caFile, ca.cert);
  // The hub's site starts as the small build; the change it distributes is the middle build's feed.
  const distDir = path.join(dir, "dist");
  const dataDir = path.join(dir, "data");
  await cp(small.distDir, distDir, { recursive: true });
  const concurrency = loadConfig({}).HUB_CONCURRENCY;
  const n = p.subscribers;
  const subs = await startSubscribers(tls, n, SUBSCRIBER_SERVERS);
  let server: ServerProcess | undefined;
  try {
    server = await startServer({
      distDir,
      contentDir: await ws.content(p.small),
      sidecarOnly: true,
      env: {
        BASE_URL,
        DATA_DIR: dataDir,
        NODE_EXTRA_CA_CERTS: caFile,
        HUB_ALLOW_PRIVATE_CALLBACKS: "true",
        HUB_MAX_PER_HOST: String(n + 10),
        HUB_MAX_SUBSCRIPTIONS: String(n + 10),
        HUB_RATE_LIMIT_PER_MINUTE: "10000000",
        HUB_CONCURRENCY: String(concurrency),
      },
    });
    const hubUrl = `${server.url}${HUB_PATH}`;
    const subscribeStarted = performance.now();
    await pool(subs.callbacks, 16, (callback) =>
      postForm(hubUrl, { "hub.mode": "subscribe", "hub.topic": TOPIC, "hub.callback": callback }),
    );
    await until(
      () => subs.verified >= n,
      WAIT_MS,
      () => `only ${subs.verified} of ${n} subscribers were asked to verify`,
    );
    const store = new SqliteHubDb(path.join(dataDir, STORE_FILE), { readOnly: true });
    try {
      await until(
        () => store.countSubscriptions() >= n,
        WAIT_MS,
        () => `only ${store.countSubscriptions()} of ${n} subscriptions became active`,
      );
    } finally {
      store.close();
    }
    const subscribeMs = performance.now() - subscribeStarted;

    const body = await readDistFile(middle.distDir, "/feed.xml");
    if (!body) throw new Error(`${middle.distDir} has no feed.xml`);
    const sha256 = createHash("sha256").update(body).digest("hex");
    // A deployment of a build that changed only the feed: the file and its manifest entry, which
    // the sidecar checks the file against before it serves or distributes it.
    const manifest = await readManifest(distDir);
    const entry = manifest.files["/feed.xml"];
    if (entry) entry.etag = strongEtag(body);
    await writeFile(path.join(distDir, "feed.xml"), body);
    await writeFile(path.join(distDir, MANIFEST_FILE), JSON.stringify(manifest));

    const acked = subs.expect(sha256);
    const rss = sampleTreeRss(server.pid);
    const started = performance.now();
    await postForm(hubUrl, { "hub.mode": "publish", "hub.url": TOPIC });
    const hubMs =
      (await within(acked, WAIT_MS, () => `the hub notified only ${subs.acked} of ${n} subscribers`)) - started;
    const hubPeak = rss.stop();

    const baseline = await undiciBaseline(dir, subs, body, {
      caFile,
      concurrency,
      link: `<${BASE_URL}${HUB_PATH}>; rel="hub", <${TOPIC}>; rel="self"`,
      timeoutMs: loadConfig({}).HUB_DELIVERY_TIMEOUT_MS,
    });
    const kib = Math.round(body.length / 1024);
    return [
      {
        section: "hub",
        name: `fan-out to ${count(n)} HTTPS subscribers / plain undici`,
        value: hubMs / baseline.ms,
        unit: "ratio",
        target: { op: "<=", value: 1.5 },
        detail: `${Math.round(hubMs)} ms / ${Math.round(baseline.ms)} ms; ${kib} KiB body, concurrency ${concurrency}, ${SUBSCRIBER_SERVERS} subscriber origins; subscribing and verifying took ${(subscribeMs / 1000).toFixed(1)} s`,
      },
      {
        section: "hub",
        name: `peak RSS of the server during the fan-out, ${count(n)} subscribers`,
        value: hubPeak / MiB,
        unit: "MiB",
        detail: `sidecar/start.ts process; the undici baseline process peaked at ${Math.round(baseline.peakBytes / MiB)} MiB`,
      },
    ];
  } finally {
    await server?.stop();
    await subs.close();
  }
}

async function undiciBaseline(
  dir: string,
  subs: Awaited<ReturnType<typeof startSubscribers>>,
  body: Buffer,
  opts: { caFile: string; concurrency: number; link: string; timeoutMs: number },
): Promise<{ ms: number; peakBytes: number }> {
  const bodyFile = path.join(dir, "body");
  const jobFile = path.join(dir, "baseline.json");
  await writeFile(bodyFile, body);
  await writeFile(
    jobFile,
    JSON.stringify({
      callbacks: subs.callbacks,
      bodyFile,
      contentType: "application/atom+xml; charset=utf-8",
      link: opts.link,
      concurrency: opts.concurrency,
      timeoutMs: opts.timeoutMs,
    }),
  );
  const child = track(
    spawn(process.execPath, [path.join(ROOT, "scripts/bench/hub-baseline.ts"), jobFile], {
      cwd: ROOT,
      env: { ...process.env, NODE_EXTRA_CA_CERTS: opts.caFile },
      stdio: ["pipe", "pipe", "pipe"],
    }),
  );
  let output = "";
  const exited = new Promise<never>((_, reject) => {
    child.once("exit", (code) => reject(new Error(`hub-baseline.ts exited (${code}) early:\n${output}`)));
  });
  child.stderr.on("data", (d: Buffer) => {
    output = (output + d.toString()).slice(-4000);
  });
  try {
    await Promise.race([
      new Promise<void>((resolve) =>
        child.stdout.on("data", (d: Buffer) => d.toString().includes("ready") && resolve()),
      ),
      exited,
    ]);
    const acked = subs.expect(createHash("sha256").update(body).digest("hex"));
    const rss = sampleTreeRss(child.pid as number);
    const started = performance.now();
    child.stdin.write("go\n");
    const ms =
      (await within(
        Promise.race([acked, exited]),
        WAIT_MS,
        () => `the baseline reached only ${subs.acked} subscribers`,
      )) - started;
    return { ms, peakBytes: rss.stop() };
  } finally {
    exited.catch(() => undefined);
    await stopChild(child, 2000);
  }
}
