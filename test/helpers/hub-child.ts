import pino from "pino";
import { createPool, databaseReachable } from "../../sidecar/db/postgres.ts";
import { Hub } from "../../sidecar/hub/hub.ts";
import { loadConfig } from "../../src/config.ts";
import { distTopicReader } from "./dist-topic-reader.ts";

/**
 * Runs a real hub in a separate process so a test can kill it mid-life (`startHubChild` in
 * hub-harness.ts spawns it). It subscribes every callback given (verified against the parent's
 * HTTPS subscriber) and prints "subscribed"; a line on stdin makes it publish the current dist:
 * it prints "publishing" at once and "ready" once the deliveries are done. On SIGTERM it does for
 * the hub what `npm start` does (sidecar/main.ts `close`): `hub.close()`, then exit 0.
 * argv: dataDir distDir baseUrl topic callbacks(JSON array) [databaseUrl]
 */
const [dataDir, distDir, baseUrl, topic, callbacksJson, databaseUrl] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string | undefined,
];
const config = loadConfig({
  BASE_URL: baseUrl,
  DATA_DIR: dataDir,
  DIST_DIR: distDir,
  HUB_ALLOW_PRIVATE_CALLBACKS: "true",
  HUB_RETRY_BASE_MS: "1000",
  HUB_CONCURRENCY: "4",
  HUB_MAX_PER_HOST: "1000",
});
const logger = pino({ level: "silent" });
const pool = databaseUrl ? createPool(databaseUrl, logger) : undefined;
const database = pool && {
  pool,
  url: databaseUrl as string,
  reachable: () => databaseReachable(pool),
  superviseSeconds: 1,
};
const hub = new Hub({ config, logger, database, readTopic: distTopicReader(distDir) });
await hub.start();
for (const callback of JSON.parse(callbacksJson) as string[]) {
  const answer = await hub.request({ "hub.mode": "subscribe", "hub.topic": topic, "hub.callback": callback });
  if (!answer.accepted) throw new Error(answer.reason);
}
await hub.idle();
process.once("SIGTERM", async () => {
  await hub.close();
  await pool?.end();
  process.exit(0);
});
process.stdout.write("subscribed\n");
// The parent rewrites the topic, then tells us to publish it.
process.stdin.once("data", async () => {
  const published = hub.publish();
  process.stdout.write("publishing\n");
  await published;
  await hub.idle();
  process.stdout.write("ready\n");
});
setInterval(() => {}, 60_000);
