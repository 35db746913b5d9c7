import { appendFile, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { LiveBuild, type LiveEvent } from "../../../sidecar/build/live-build.ts";
import { SnapshotStore } from "../../../sidecar/build/snapshot-store.ts";
import { MANIFEST_FILE } from "../../../src/http-headers/manifest.ts";
import { buildBeforeAll } from "../../helpers/build-site.ts";
import { deployFile } from "../../helpers/deploy-file.ts";

/** The one owner of "a new build is live": what it announces, to whom, and what a failure leaves. */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");

const built = buildBeforeAll(FIXTURE);

function logged() {
  const lines: { msg: string; listener?: string; reason?: string }[] = [];
  const logger = pino({ level: "info" }, { write: (l: string) => lines.push(JSON.parse(l)) });
  return { lines, logger };
}

describe("LiveBuild", () => {
  it("announces a new build to every listener in order, each awaited, with the build's version", async () => {
    const { logger } = logged();
    const live = new LiveBuild({ store: await SnapshotStore.open(built.distDir), logger });
    const seen: string[] = [];
    const events: LiveEvent[] = [];
    live.onLive("first", async (e) => {
      await new Promise((r) => setImmediate(r));
      seen.push("first");
      events.push(e);
    });
    live.onLive("second", () => {
      seen.push("second");
    });
    const before = live.current;
    // An insights-only change: the dataset's ETag stays, the build's version does not.
    const insights = JSON.parse(await readFile(path.join(built.distDir, "insights.json"), "utf8"));
    insights.summary = { ...insights.summary, text: "A new summary." };
    await deployFile(built.distDir, "/insights.json", JSON.stringify(insights));

    const { snapshot, changed, failed } = await live.goLive("publish", { topics: ["t"] });
    expect(changed).toBe(true);
    expect(failed).toEqual([]);
    expect(seen).toEqual(["first", "second"]);
    expect(events[0]).toMatchObject({ snapshot, previous: before, reason: "publish", topics: ["t"] });
    expect(snapshot.version).toBe(before.version);
    expect(snapshot.build).not.toBe(before.build);

    // The same build again: announced as unchanged (snapshot === previous), nothing loaded.
    const again = await live.goLive("publish");
    expect(again.changed).toBe(false);
    expect(events[1]?.snapshot).toBe(events[1]?.previous);
  });

  it("keeps the build live when a listener fails, runs the others, and names the failure", async () => {
    const { lines, logger } = logged();
    const live = new LiveBuild({ store: await SnapshotStore.open(built.distDir), logger });
    const ran: string[] = [];
    live.onLive("distributing it", () => {
      throw new Error("connect ECONNREFUSED");
    });
    live.onLive("notifying MCP subscribers", () => {
      ran.push("mcp");
    });
    await appendFile(path.join(built.distDir, MANIFEST_FILE), "\n");
    const { snapshot, failed } = await live.goLive("rebuild");
    expect(live.current).toBe(snapshot);
    expect(failed).toEqual(["distributing it"]);
    expect(ran).toEqual(["mcp"]);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: "the build is served, but distributing it failed",
        reason: "connect ECONNREFUSED",
      }),
    );
  });

  it("announces nothing and keeps the last good build when the new one cannot be loaded", async () => {
    const { logger } = logged();
    const live = new LiveBuild({ store: await SnapshotStore.open(built.distDir), logger });
    const events: LiveEvent[] = [];
    live.onLive("recording", (e) => {
      events.push(e);
    });
    const good = live.current;
    const manifestPath = path.join(built.distDir, MANIFEST_FILE);
    const manifest = JSON.parse(await readFile(manifestPath, "utf8"));
    manifest.files["/feed.xml"].etag = '"not-the-feed"';
    await writeFile(manifestPath, JSON.stringify(manifest));
    await expect(live.goLive("publish")).rejects.toThrow(/does not match the ETag/);
    expect(live.current).toBe(good);
    expect(events).toEqual([]);
  });
});
