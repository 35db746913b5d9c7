import pino from "pino";
import { Hub } from "../../sidecar/hub/hub.ts";
import { loadConfig } from "../../src/config.ts";

/**
 * Runs a real hub in a separate process so a test can `kill -9` it mid-life. It subscribes the
 * callback given in argv (verified against the parent's HTTPS subscriber), publishes the current
 * dist, waits for that delivery attempt, prints "ready" and then idles until killed.
 * argv: dataDir distDir baseUrl callback topic
 */
const [dataDir, distDir, baseUrl, callback, topic] = process.argv.slice(2) as [string, string, string, string, string];
const config = loadConfig({
  BASE_URL: baseUrl,
  DATA_DIR: dataDir,
  DIST_DIR: distDir,
  HUB_ALLOW_PRIVATE_CALLBACKS: "true",
  HUB_RETRY_BASE_MS: "1000",
});
const hub = new Hub({ config, logger: pino({ level: "silent" }) });
await hub.start();
const answer = await hub.request({ "hub.mode": "subscribe", "hub.topic": topic, "hub.callback": callback });
if (!answer.accepted) throw new Error(answer.reason);
await hub.idle();
process.stdout.write("subscribed\n");
// The parent rewrites the topic, then tells us to publish it.
process.stdin.once("data", async () => {
  await hub.publish();
  await hub.idle();
  process.stdout.write("ready\n");
});
setInterval(() => {}, 60_000);
