import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { itemAt, itemCount, RUN, shareItems, taken, takeRun } from "../../../src/io/shared-items.ts";

const MODULE = pathToFileURL(new URL("../../../src/io/shared-items.ts", import.meta.url).pathname).href;

/** A worker thread that takes runs from `shared` until none are left, and returns the items it took. */
function taker(shared: ReturnType<typeof shareItems>): Promise<{ index: number; item: unknown }[]> {
  const code = `
    const { parentPort, workerData } = require("node:worker_threads");
    import(workerData.module).then(({ taken, itemAt }) => {
      const took = [];
      for (const i of taken(workerData.shared)) took.push({ index: i, item: itemAt(workerData.shared, i) });
      parentPort.postMessage(took);
    });`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { module: MODULE, shared } });
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}

describe("shared items", () => {
  it("gives every item back as it was, in its place", () => {
    const items = [
      ["k1", { title: null, text: "Dr. Oké fixed my neck 👍", rating: 5, tags: [] }],
      ["k2", { title: "Lone \ud800 surrogate", text: "", rating: 1, tags: ["a", "b"] }],
      ["k3", { nested: { deep: [1, 2.5, -3] } }],
    ];
    const shared = shareItems(items);
    expect(itemCount(shared)).toBe(3);
    expect(items.map((_, i) => itemAt(shared, i))).toEqual(items);
  });

  it("hands out runs of RUN indexes, then empty runs once all are taken", () => {
    const shared = shareItems(Array.from({ length: RUN + 3 }, (_, i) => i));
    expect(takeRun(shared)).toEqual([0, RUN]);
    expect(takeRun(shared)).toEqual([RUN, RUN + 3]);
    const [from, to] = takeRun(shared);
    expect(from).toBeGreaterThanOrEqual(to);
    expect(takeRun(shareItems([]))).toEqual([0, 0]);
  });

  it("gives each item to exactly one of several threads taking at once", async () => {
    const items = Array.from({ length: 5000 }, (_, i) => ({ i, text: `review ${i} ${"é".repeat(i % 7)}` }));
    const shared = shareItems(items);
    // The test's own thread takes too, as the build's thread does beside its workers.
    const workers = [taker(shared), taker(shared), taker(shared)];
    const mine: { index: number; item: unknown }[] = [];
    for (const i of taken(shared)) mine.push({ index: i, item: itemAt(shared, i) });
    const all = [...mine, ...(await Promise.all(workers)).flat()];
    expect(all).toHaveLength(items.length);
    expect(new Set(all.map((t) => t.index)).size).toBe(items.length);
    for (const { index, item } of all) expect(item).toEqual(items[index]);
  });
});
