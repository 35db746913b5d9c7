import { parentPort, workerData } from "node:worker_threads";
import { clauseKey, encodeClauses, writeClauses } from "./clause-store.ts";
import { createAnalyzer } from "./nlp.ts";

/**
 * A worker of `analyseInParallel`: analyses the texts it is given and writes each one's clauses
 * to the cache folder, then reports how many it wrote. Nothing but the count crosses back.
 */
const { dir, texts } = workerData as { dir: string; texts: string[] };
const analyzer = createAnalyzer();
for (const text of texts) writeClauses(dir, clauseKey(text), encodeClauses(analyzer.clauses(text, 0)));
parentPort?.postMessage(texts.length);
