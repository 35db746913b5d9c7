import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startApp } from "../../helpers/app-server.ts";
import { buildSite } from "../../helpers/build-site.ts";
import { PROJECT_CONTENT } from "../../helpers/project-content.ts";

/** A running app's reload of a rebuilt DIST_DIR on a publish, and what it keeps when the new build is bad. */

const CONTENT = PROJECT_CONTENT;

describe("reload", () => {
  it("serves a rebuilt dataset without a restart, and keeps the last good one on a bad build", {
    timeout: 240_000,
  }, async () => {
    const content = await mkdtemp(path.join(os.tmpdir(), "pr-reload-"));
    await cp(CONTENT, content, { recursive: true });
    const first = await buildSite(content);
    expect(first.code, first.stderr + first.stdout).toBe(0);
    const local = await startApp(first.distDir);
    try {
      // A publish with no new build keeps the index: nothing to rebuild.
      const unchanged = local.store.current;
      await local.live.goLive("publish");
      expect(local.store.current.index).toBe(unchanged.index);
      const before = await (await fetch(`${local.url}/api/reviews/search?limit=1`)).json();
      await writeFile(
        path.join(content, "reviews/2026/2026-11-24-new-review.yaml"),
        [
          "date: 2026-11-24",
          'published_at: "2026-11-24T10:00:00Z"',
          "rating: 5",
          "author: Reload T.",
          "text: Brand new review about the zebra-striped waiting room.",
          "source: {platform: direct}",
          "verification: {method: invoice, verified_on: 2026-11-24}",
          "",
        ].join("\n"),
      );
      const second = await buildSite(content, {}, first.distDir);
      expect(second.code, second.stderr).toBe(0);
      await local.live.goLive("publish");
      expect(local.store.current.index).not.toBe(unchanged.index);
      const after = await (await fetch(`${local.url}/api/reviews/search?query=zebra-striped`)).json();
      expect(after.total).toBe(1);
      expect(after.reviews[0].id).toBe("2026-11-24-new-review");
      expect((await (await fetch(`${local.url}/api/reviews/search?limit=1`)).json()).total).toBe(before.total + 1);
      // A broken build on disk: the reload fails and the last good dataset stays.
      await writeFile(path.join(first.distDir, "reviews.json"), "{ not json");
      const manifestPath = path.join(first.distDir, "_headers.json");
      const broken = JSON.parse(await readFile(manifestPath, "utf8"));
      broken.files["/reviews.json"].etag = '"a-new-build"';
      await writeFile(manifestPath, JSON.stringify(broken));
      await expect(local.live.goLive("publish")).rejects.toThrow(/reviews\.json/);
      expect((await (await fetch(`${local.url}/api/reviews/search?query=zebra-striped`)).json()).total).toBe(1);
    } finally {
      await local.close();
      await rm(content, { recursive: true, force: true });
      await rm(first.distDir, { recursive: true, force: true });
    }
  });
});
