import { parentPort, workerData } from "node:worker_threads";
import type { Business } from "../content/records.ts";
import { PackWriter, writing } from "../io/pack-file.ts";
import type { ReviewInput } from "./annotate.ts";
import type { InsightsContent } from "./content-schema.ts";
import { createAnalyzer } from "./nlp.ts";
import { createSummariser, encodeSummary } from "./review-summary.ts";

/**
 * A worker of `summariseInParallel`: summarises the reviews it is given into one pack of the
 * cache folder, then reports how many it wrote. Nothing but the count crosses back.
 */
const { dir, content, business, items } = workerData as {
  dir: string;
  content: InsightsContent;
  business: Business;
  items: [key: string, review: ReviewInput][];
};
const summarise = createSummariser(content, business, createAnalyzer());
const pack = new PackWriter(dir);
writing(pack, () => {
  for (const [key, review] of items) pack.add(key, encodeSummary(summarise(review)));
});
parentPort?.postMessage(items.length);
