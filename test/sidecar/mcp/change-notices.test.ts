import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Snapshot } from "../../../sidecar/build/snapshot.ts";
import { ChangeNotices, changedUris, MAX_STREAMS_PER_SESSION } from "../../../sidecar/mcp/change-notices.ts";
import { insightsUri } from "../../../sidecar/mcp/insights.ts";
import { datasetUri, reviewUri } from "../../../sidecar/mcp/resources.ts";
import { buildDataset } from "../../../src/content/dataset.ts";
import type { ReviewsDataset } from "../../../src/content/records.ts";
import { loadContent } from "../../../src/io/content-dir.ts";
import { createSearchIndex } from "../../../src/search/review-index.ts";
import { ManualClock } from "../../helpers/manual-clock.ts";
import { PROJECT_CONTENT } from "../../helpers/project-content.ts";

/**
 * 2025-06-18 "Multiple Connections": a client may hold several SSE streams, and the server sends
 * each message on only one of them. ChangeNotices on its own, with real SDK servers and
 * transports behind each stream.
 */

const URI = "reviews://2025-01-01-someone";
const TTL = 60_000;

type Renew = (sessionId: string) => Promise<number | undefined>;

function notices(clock: ManualClock, renew: Renew = async () => clock.now() + TTL) {
  const server = () => new McpServer({ name: "t", version: "0" }, { capabilities: { resources: { subscribe: true } } });
  return new ChangeNotices({
    baseUrl: "https://reviews.test",
    maxSessions: 10,
    maxStreams: 10,
    keepAliveMs: 0,
    idleMs: TTL,
    renew,
    createServer: server,
    modern: createMcpHandler(server, { legacy: "reject" }).notify,
    clock,
  });
}

/** Lets the renewals a timer started settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

const get = () => new Request("http://localhost/mcp", { method: "GET", headers: { accept: "text/event-stream" } });

describe("ChangeNotices", () => {
  it("sends each notice on one of a session's streams, its newest, and none twice", async () => {
    const clock = new ManualClock();
    const n = notices(clock);
    const exp = clock.now() + TTL;
    const streams = [await n.openStream("s", exp, get()), await n.openStream("s", exp, get())];
    expect(streams.map((r) => r.status)).toEqual([200, 200]);
    expect(n.openStreams).toBe(2);
    expect(n.subscribe("s", URI)).toBe(true);
    await n.publish([URI]);
    await n.close();
    const texts = await Promise.all(streams.map((r) => r.text()));
    const count = (t: string) => t.split("notifications/resources/updated").length - 1;
    expect(texts.map(count)).toEqual([0, 1]);
  });

  it("closes a session's oldest stream past the per-session bound, and all of them when it ends", async () => {
    const clock = new ManualClock();
    const n = notices(clock);
    const exp = clock.now() + TTL;
    const streams: Response[] = [];
    for (let i = 0; i <= MAX_STREAMS_PER_SESSION; i++) streams.push(await n.openStream("s", exp, get()));
    expect(n.openStreams).toBe(MAX_STREAMS_PER_SESSION);
    // The oldest was closed: its body ends though the others are still open.
    expect(await (streams[0] as Response).text()).toMatch(/^: stream open/);
    n.endSession("s");
    expect(n.openStreams).toBe(0);
    await Promise.all(streams.slice(1).map((r) => r.text()));
  });

  it("keeps an open stream's session alive past the idle timeout, delivers its changes, and closes when it ended", async () => {
    const clock = new ManualClock();
    let live = true;
    const renewed: string[] = [];
    const n = notices(clock, async (id) => {
      renewed.push(id);
      return live ? clock.now() + TTL : undefined;
    });
    const streams = [
      await n.openStream("s", clock.now() + TTL, get()),
      await n.openStream("s", clock.now() + TTL, get()),
    ];
    expect(n.subscribe("s", URI)).toBe(true);
    for (let i = 0; i < 8; i++) {
      clock.advance(TTL / 2);
      await settle();
    }
    expect(n.openStreams).toBe(2);
    expect(renewed.length).toBeGreaterThanOrEqual(8);
    // Four idle timeouts on, the subscription holds and the change goes out.
    await n.publish([URI]);
    // Ended elsewhere (a DELETE on another instance): the next renewal closes every stream.
    live = false;
    clock.advance(TTL / 2);
    await settle();
    expect(n.openStreams).toBe(0);
    const texts = await Promise.all(streams.map((r) => r.text()));
    expect(texts.join("")).toContain('"uri":"reviews://2025-01-01-someone"');
  });
});

describe("changedUris", () => {
  const BASE = "https://reviews.test";
  /** What changedUris only reads of a snapshot: the dataset's version and its reviews. */
  const snapshotOf = (dataset: ReviewsDataset, version: string) =>
    ({ version, index: createSearchIndex(dataset) }) as unknown as Snapshot;
  /** The plain definition: a review's URI when its JSON differs, is new, or is gone. */
  const reference = (a: ReviewsDataset, b: ReviewsDataset) => {
    const before = new Map(a.reviews.map((r) => [r.id, JSON.stringify(r)]));
    const after = new Map(b.reviews.map((r) => [r.id, JSON.stringify(r)]));
    const ids = [...b.reviews.map((r) => r.id), ...a.reviews.map((r) => r.id).filter((id) => !after.has(id))];
    return ids.filter((id) => before.get(id) !== after.get(id)).map((id) => reviewUri(id));
  };

  it("names exactly the reviews whose JSON differs, is new or is gone, after the dataset and insights", async () => {
    const dataset = buildDataset(await loadContent(PROJECT_CONTENT, { now: new Date("2030-01-01T00:00:00Z") }), BASE);
    const n = dataset.reviews.length;
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat(n - 1), { maxLength: 5 }),
        fc.uniqueArray(fc.nat(n - 1), { maxLength: 3 }),
        (edited, dropped) => {
          const reviews = dataset.reviews
            .map((r, i) => (edited.includes(i) ? { ...r, text: `${r.text} Edited.` } : r))
            .filter((_, i) => !dropped.includes(i));
          // Parsed apart, as each snapshot reads its own reviews.json.
          const next: ReviewsDataset = JSON.parse(JSON.stringify({ ...dataset, reviews }));
          const got = changedUris(snapshotOf(dataset, '"a"'), snapshotOf(next, '"b"'), BASE);
          expect(got.slice(0, 2)).toEqual([datasetUri(BASE), insightsUri(BASE)]);
          expect(got.slice(2)).toEqual(reference(dataset, next));
        },
      ),
      { numRuns: 40 },
    );
    expect(changedUris(snapshotOf(dataset, '"a"'), snapshotOf(dataset, '"a"'), BASE)).toEqual([]);
  });
});
