import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import type { TestApp } from "./app-server.ts";
import { buildSite, testLogKey } from "./build-site.ts";
import { runLogVerify } from "./log-verify-run.ts";
import { type SiteProxy, startSiteProxy } from "./site-proxy.ts";
import { tempFolders } from "./temp-folders.ts";

export const MIKE = "2024-11-21-mike";
export const CARLOS = "2025-03-10-carlos-d";

export interface WithdrawnSite {
  /** The proxy the site is served behind: set its `rewrite` to change what a path answers. */
  readonly site: SiteProxy;
  readonly base: string;
  readonly vkey: string;
  /** `npm run log:verify` with these arguments. */
  run(argv: string[], fetch?: typeof globalThis.fetch): ReturnType<typeof runLogVerify>;
  /** `log:verify --pages` on the site. */
  verify(): ReturnType<typeof runLogVerify>;
}

/**
 * For a suite: real builds of the fixture, the second with MIKE withdrawn, served by the app behind a proxy on
 * the port BASE_URL names, which can answer a path otherwise; the proxy's rewrites end with each test.
 */
export function withdrawnSite(): WithdrawnSite {
  const temp = tempFolders();
  let site: SiteProxy | undefined;
  let vkey = "";
  let app: TestApp | undefined;

  beforeAll(async () => {
    // Before the app is up (the build asks for a published log to continue), nothing is published.
    site = await startSiteProxy();
    const fixture = path.resolve(import.meta.dirname, "../fixtures/basic-content");
    const content = await temp.copy(fixture, "pr-log-verify-content-");
    // Published by a first build, then withdrawn: the counts of reviews published and withdrawn now hold it.
    const env = { BASE_URL: site.base, LOG_DIR: await temp.make("pr-log-verify-state-") };
    const published = await buildSite(content, env);
    temp.add(published.distDir);
    expect(published.code, published.stderr).toBe(0);
    const mike = path.join(content, "reviews/2024", `${MIKE}.yaml`);
    await writeFile(mike, `${await readFile(mike, "utf8")}withdrawn:\n  reason: author-request\n  date: 2026-11-20\n`);
    const b = await buildSite(content, env);
    temp.add(b.distDir);
    expect(b.code, b.stderr).toBe(0);
    vkey = testLogKey(site.base).vkey;
    app = await site.serve(b.distDir);
  });

  afterAll(async () => {
    await app?.close();
    await site?.close();
  });

  afterEach(() => site?.reset());

  const run = (argv: string[], fetch?: typeof globalThis.fetch) => runLogVerify(argv, { now: new Date(0), fetch });
  return {
    get site() {
      return site as SiteProxy;
    },
    get base() {
      return (site as SiteProxy).base;
    },
    get vkey() {
      return vkey;
    },
    run,
    verify: () => run(["--url", `${(site as SiteProxy).base}/log`, "--key", vkey, "--pages"]),
  };
}
