import { parentPort, workerData } from "node:worker_threads";
import type { Business } from "../content/records.ts";
import { PackWriter, writing } from "../io/pack-file.ts";
import { itemAt, type SharedItems, taken } from "../io/shared-items.ts";
import type { ReviewInput } from "./annotate.ts";
import type { InsightsContent } from "./content-schema.ts";
import { createAnalyzer } from "./nlp.ts";
import { createSummariser, encodeSummary } from "./review-summary.ts";

/**
 * A worker of `summariseInParallel`: summarises the reviews it takes from the shared list (a run at
 * a time, beside the other threads) into one pack of the cache folder, then reports how many it
 * wrote. Nothing but the count crosses back.
 */
const { dir, content, business, shared } = workerData as {
  dir: string;
  content: InsightsContent;
  business: Business;
  shared: SharedItems;
};
const summarise = createSummariser(content, business, createAnalyzer());
const pack = new PackWriter(dir);
let written = 0;
writing(pack, () => {
  for (const i of taken(shared)) {
    const [key, review] = itemAt<[string, ReviewInput]>(shared, i);
    pack.add(key, encodeSummary(summarise(review)));
    written++;
  }
});
parentPort?.postMessage(written);
