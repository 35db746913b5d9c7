import { cp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT, runAstroBuild } from "../../src/build/astro-build.ts";
import { tempDistDir } from "../helpers/build-site.ts";
import { loggedSite } from "../helpers/logged-site.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

/**
 * Two builds of edited copies of a content folder, run at once on one LOG_DIR from two checkouts:
 * the log's lock lets one through and refuses the other, or both commit in turn, and either way
 * each checkpoint left extends the one before, as `npm run log:verify` reads them served at BASE_URL.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const CARLOS = "2025-03-10-carlos-d";

const logged = loggedSite(new Date("2026-11-27T00:00:00Z"), { go: false });
const temp = tempFolders();
const file = (id: string, dir: string) => path.join(dir, "reviews", id.slice(0, 4), `${id}.yaml`);

/**
 * A second checkout of this project sharing its installed packages. Two builds of one checkout at
 * once race in its `.astro/` folder (Astro's content sync renames one temporary file there), which
 * is why the build lock serialises them; builds sharing a LOG_DIR come from two clones or machines.
 */
async function secondCheckout(): Promise<string> {
  const root = await temp.make("pr-log-checkout-");
  for (const name of ["astro.config.mjs", "package.json", "tsconfig.json", "src", "scripts"])
    await cp(path.join(PROJECT_ROOT, name), path.join(root, name), { recursive: true });
  await symlink(path.join(PROJECT_ROOT, "node_modules"), path.join(root, "node_modules"), "dir");
  return root;
}

describe("two builds at once on one LOG_DIR", { timeout: 1_500_000 }, () => {
  it("leave checkpoints of which one extends the other, or one refuses", async () => {
    const shared = await temp.make("pr-log-shared-");
    const a = await temp.make("pr-log-copy-a-");
    const c = await temp.make("pr-log-copy-b-");
    await cp(FIXTURE, a, { recursive: true });
    await cp(FIXTURE, c, { recursive: true });
    const carlos = await readFile(file(CARLOS, c), "utf8");
    await writeFile(file(CARLOS, c), carlos.replace("Sprained my ankle", "Twisted my ankle"));
    // Made first, so that copying it does not delay the second build's start.
    const other = await secondCheckout();
    // Not through buildSite, which serialises builds: these two must overlap.
    const unlocked = async (dir: string, root?: string) => {
      const distDir = await tempDistDir();
      const r = await runAstroBuild({
        distDir,
        root,
        contentDir: dir,
        env: {
          ...process.env,
          BASE_URL: logged.base,
          LOG_DIR: shared,
          LOG_SIGNING_KEY: logged.key.skey,
          HUB_URL: "http://127.0.0.1:9/",
        },
        silent: true,
        dropCache: true,
      });
      return { ...r, distDir };
    };
    const [x, y] = await Promise.all([unlocked(a), unlocked(c, other)]);
    const ok = [x, y].filter((r) => r.code === 0);
    for (const r of [x, y].filter((r) => r.code !== 0))
      expect(r.stdout + r.stderr).toMatch(/is locked by|changed while this build/);
    expect(ok.length).toBeGreaterThan(0);
    const sizes = await Promise.all(
      ok.map(async (r) => Number((await readFile(path.join(r.distDir, "log/checkpoint"), "utf8")).split("\n")[1])),
    );
    // Each build's log, served in turn from the smaller: each must extend the one before.
    const order = ok.map((r, i) => ({ r, size: sizes[i] as number })).sort((p, q) => p.size - q.size);
    const monitorState = path.join(await temp.make("pr-log-monitor2-"), "state.json");
    for (const { r } of order) {
      const app = await logged.site.serve(r.distDir);
      try {
        const v = await logged.monitor(monitorState);
        expect(v.code, v.err).toBe(0);
      } finally {
        await app.close();
      }
    }
    const last = order.at(-1) as { size: number };
    expect((await readFile(path.join(shared, "checkpoint"), "utf8")).split("\n")[1]).toBe(String(last.size));
    expect(await readdir(shared)).not.toContain(".lock");
  });
});
