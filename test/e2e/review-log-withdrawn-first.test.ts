import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { htmlText } from "../../src/log/page-check.ts";
import { loggedSite } from "../helpers/logged-site.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

/**
 * A review whose file says `withdrawn:` at the site's first build is logged as withdrawn, yet it
 * was never published: the home page and `/log/` count reviews published and, of those, the ones
 * withdrawn now (docs/log.md), so it is in neither count, only in the entries. The monitor, which
 * recomputes both sentences from the log, agrees; the review's address still answers 410.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const MIKE = "2024-11-21-mike";
const CARLOS = "2025-03-10-carlos-d";

const logged = loggedSite(new Date("2026-11-27T00:00:00Z"), { go: false });
const temp = tempFolders();

const withdraw = async (file: string, reason: string) =>
  writeFile(file, `${await readFile(file, "utf8")}withdrawn:\n  reason: ${reason}\n  date: 2026-11-20\n`);

/** The text of the home page's log summary and of the `/log/` page's counts. */
async function counts(base: string): Promise<{ home: string; log: string }> {
  const home = await (await fetch(`${base}/`)).text();
  const log = await (await fetch(`${base}/log/`)).text();
  const summary = /<p\b[^>]*class="log-summary[^"]*"[^>]*>([\s\S]*?)<\/p>/.exec(home)?.[1] ?? "";
  const section = /<section\b[^>]*id="counts"[^>]*>([\s\S]*?)<\/section>/.exec(log)?.[1] ?? "";
  return { home: htmlText(summary), log: htmlText(section) };
}

describe("a review withdrawn before the site's first build", { timeout: 600_000 }, () => {
  it("is counted as a withdrawal entry, never as a published review withdrawn now, by the pages and the monitor", async () => {
    const content = await temp.copy(FIXTURE, "pr-log-withdrawn-first-content-");
    const logDir = await temp.make("pr-log-withdrawn-first-state-");
    const state = path.join(await temp.make("pr-log-withdrawn-first-monitor-"), "state.json");
    await withdraw(path.join(content, "reviews/2024", `${MIKE}.yaml`), "false-or-fake");

    const first = await logged.build(content, logDir);
    expect(first.code, first.stderr).toBe(0);
    let app = await logged.site.serve(first.distDir);
    try {
      const shown = await counts(logged.base);
      expect(shown.home).toContain("7 reviews have been published here; none has been withdrawn.");
      expect(shown.log).toContain("The log has 8 entries: 7 published, 0 amended, 1 withdrawn and 0 restored.");
      expect(shown.log).toContain("7 different reviews have been published here; 0 are withdrawn now.");
      const gone = await fetch(`${logged.base}/reviews/${MIKE}/`);
      expect(gone.status).toBe(410);
      // Never on the list: its page must not say it is "no longer" shown.
      expect(htmlText(await gone.text())).toContain("on that page. The review itself was never shown.");
      const run = await logged.monitor(state);
      expect(run.err).toBe("");
      expect(run.code).toBe(0);
    } finally {
      await app.close();
    }

    // A published review withdrawn later is counted, and the one never published still is not.
    await withdraw(path.join(content, "reviews/2025", `${CARLOS}.yaml`), "author-request");
    const second = await logged.build(content, logDir);
    expect(second.code, second.stderr).toBe(0);
    app = await logged.site.serve(second.distDir);
    try {
      const shown = await counts(logged.base);
      expect(shown.home).toContain("7 reviews have been published here; 1 withdrawn (1 at the author's request).");
      expect(shown.log).toContain("The log has 9 entries: 7 published, 0 amended, 2 withdrawn and 0 restored.");
      expect(shown.log).toContain("7 different reviews have been published here; 1 is withdrawn now.");
      const gone = await (await fetch(`${logged.base}/reviews/${CARLOS}/`)).text();
      expect(htmlText(gone)).toContain("on that page. The review itself is no longer shown.");
      const run = await logged.monitor(state);
      expect(run.err).toBe("");
      expect(run.code).toBe(0);
    } finally {
      await app.close();
    }
  });
});
