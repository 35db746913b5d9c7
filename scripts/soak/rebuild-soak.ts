import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { newTally, pollBuilds, soakMarker, soakPaths, soakReview } from "./build-poller.ts";

/**
 * Soak test of rebuilds against a running `npm start`: polls the home page, the Atom feed, every
 * month page and `/reviews.json` from several clients while it adds `--changes` reviews to
 * `--content`, one rebuild at a time, then prints what the clients saw. Run it against any
 * version of the server to compare (docs/deployment.md).
 *
 *   node scripts/soak/rebuild-soak.ts --url http://127.0.0.1:4321 --content ./content-copy
 *
 * The content folder is modified: use a copy. Start the server with a high RATE_LIMIT_PER_MINUTE.
 */
const { values } = parseArgs({
  options: {
    url: { type: "string" },
    content: { type: "string" },
    changes: { type: "string", default: "10" },
    clients: { type: "string", default: "3" },
    "timeout-s": { type: "string", default: "600" },
  },
});
const changes = Number(values.changes);
const clients = Number(values.clients);
if (!values.url || !values.content || !(changes >= 1 && changes <= 28) || !(clients >= 1 && clients <= 32)) {
  process.stderr.write("usage: rebuild-soak.ts --url URL --content DIR [--changes 1-28] [--clients 1-32]\n");
  process.exit(2);
}
const url = values.url.replace(/\/+$/, "");
const folder = path.join(values.content, "reviews", "2024");
await mkdir(folder, { recursive: true });

const paths = await soakPaths(url);
const stop = { done: false };
const tally = newTally();
const pollers = Array.from({ length: clients }, () => pollBuilds(url, paths, stop, tally));
const rebuildMs: number[] = [];
const deadline = Date.now() + Number(values["timeout-s"]) * 1000;
try {
  for (let k = 1; k <= changes; k++) {
    const started = performance.now();
    const { name, yaml } = soakReview(k);
    await writeFile(path.join(folder, name), yaml);
    for (;;) {
      if (Date.now() > deadline) throw new Error(`change ${k} was not served in time`);
      const res = await fetch(`${url}/api/reviews/search?query=${soakMarker(k)}`).catch(() => undefined);
      if (res?.ok && ((await res.json()) as { total: number }).total === 1) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    rebuildMs.push(Math.round(performance.now() - started));
  }
} finally {
  stop.done = true;
  await Promise.all(pollers);
}
process.stdout.write(
  `${JSON.stringify({ changes, clients, paths: paths.length, ...tally, rebuild_ms: rebuildMs }, null, 2)}\n`,
);
process.exit(tally.failures === 0 ? 0 : 1);
