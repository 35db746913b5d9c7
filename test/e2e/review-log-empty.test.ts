import { cp, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GO_MISSING, loggedSite } from "../helpers/logged-site.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

/**
 * A site with no reviews yet: its log has no entries and the root RFC 6962 gives the empty tree,
 * SHA-256 of nothing (docs/log.md). Both verifiers accept it, and the log its first reviews make
 * extends it. Go's tlog.TreeHash(0) and tlog.ProveTree(t, 0) do not take size 0, so the Go
 * verifier must take it apart.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const EMPTY_ROOT = "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=";

/** The site at BASE_URL, so records name their permalinks there. */
const logged = loggedSite(new Date("2026-11-27T00:00:00Z"));
const temp = tempFolders();

/** Builds `content` on `logDir`, serves it, and runs both verifiers (the Go one from `old`, "size:root"). */
async function verifyBuild(content: string, logDir: string, state: string, old?: string) {
  const b = await logged.build(content, logDir);
  expect(b.code, b.stderr).toBe(0);
  const app = await logged.site.serve(b.distDir);
  try {
    return { ...(await logged.monitor(state)), go: await logged.goVerify(old) };
  } finally {
    await app.close();
  }
}

describe("an empty review log", { timeout: 600_000 }, () => {
  it.skipIf(GO_MISSING)(`(the Go verifier: ${GO_MISSING ?? "available"})`, () => {});

  it("is signed with the empty tree's root, both verifiers accept it, and the first reviews' log extends it", async () => {
    const content = await temp.copy(FIXTURE, "pr-log-empty-content-");
    const reviews = path.join(content, "reviews");
    const kept = await temp.copy(reviews, "pr-log-empty-reviews-");
    await rm(reviews, { recursive: true });
    const logDir = await temp.make("pr-log-empty-state-");
    const state = path.join(await temp.make("pr-log-empty-monitor-"), "state.json");

    const empty = await verifyBuild(content, logDir, state);
    expect((await readFile(path.join(logDir, "checkpoint"), "utf8")).split("\n").slice(1, 3)).toEqual([
      "0",
      EMPTY_ROOT,
    ]);
    expect(empty.err).toBe("");
    expect(empty.out).toContain(`0 entries, root ${EMPTY_ROOT}`);
    expect(empty.code).toBe(0);
    if (empty.go) expect(empty.go).toMatchObject({ code: 0, err: "" });

    await cp(kept, reviews, { recursive: true });
    const first = await verifyBuild(content, logDir, state, `0:${EMPTY_ROOT}`);
    expect(first.err).toBe("");
    expect(first.out).toMatch(/8 entries, .* it extends the checkpoint of size 0 seen on 2026-11-27\n/);
    expect(first.code).toBe(0);
    if (first.go) expect(first.go).toMatchObject({ code: 0, err: "" });
  });
});
