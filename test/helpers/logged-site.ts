import { afterAll, beforeAll } from "vitest";
import { type BuildResult, buildSite, testLogKey } from "./build-site.ts";
import { buildGoVerifier, type GoVerifier, goUnavailable } from "./go-log-verifier.ts";
import { type LogVerifyRun, runLogVerify } from "./log-verify-run.ts";
import { type SiteProxy, startSiteProxy } from "./site-proxy.ts";
import { tempFolders } from "./temp-folders.ts";

/** Why the Go verifier does not run here, or undefined when it does. */
export const GO_MISSING = goUnavailable();

export interface LoggedSite {
  /** The site at BASE_URL: serves a build, and can answer for it. */
  readonly site: SiteProxy;
  /** BASE_URL, `http://localhost:<port>`. */
  readonly base: string;
  /** The fixed test key of BASE_URL's log (build-site.ts's testLogKey). */
  readonly key: { skey: string; vkey: string };
  /** A `buildSite` of `contentDir` for BASE_URL keeping its log in `logDir`; its output goes after the tests. */
  build(contentDir: string, logDir: string, env?: Record<string, string>): Promise<BuildResult>;
  /** `npm run log:verify` of the log served at BASE_URL, with the state file `state`. */
  monitor(state: string, argv?: string[]): Promise<LogVerifyRun>;
  /** The Go verifier (test/go/logverify) on the served log, from `old` ("size:root"); undefined without Go. */
  goVerify(old?: string): Promise<{ code: number; out: string; err: string } | undefined>;
}

/**
 * For a test file of the review log end to end: the site at BASE_URL, behind a site proxy so the
 * site a build continues and the site a monitor reads are the same, and both verifiers of its log;
 * made before the file's tests (`now` is the monitor's clock; `go: false` leaves the Go verifier
 * unbuilt), removed after them.
 */
export function loggedSite(now: Date, opts: { go?: boolean } = {}): LoggedSite {
  const temp = tempFolders();
  let proxy: SiteProxy | undefined;
  let key: { skey: string; vkey: string } | undefined;
  let go: GoVerifier | undefined;
  beforeAll(async () => {
    proxy = await startSiteProxy();
    key = testLogKey(proxy.base);
    if (opts.go !== false && !GO_MISSING) go = await buildGoVerifier();
  });
  afterAll(async () => {
    await proxy?.close();
    await go?.remove();
  });
  const site = () => {
    if (!proxy) throw new Error("loggedSite: read before its beforeAll ran");
    return proxy;
  };
  const logged: LoggedSite = {
    get site() {
      return site();
    },
    get base() {
      return site().base;
    },
    get key() {
      site();
      return key as { skey: string; vkey: string };
    },
    async build(contentDir, logDir, env = {}) {
      const { base, key } = logged;
      const result = await buildSite(contentDir, {
        BASE_URL: base,
        LOG_DIR: logDir,
        LOG_SIGNING_KEY: key.skey,
        ...env,
      });
      temp.add(result.distDir);
      return result;
    },
    monitor(state, argv = []) {
      const { base, key } = logged;
      return runLogVerify(["--url", `${base}/log`, "--key", key.vkey, "--state", state, ...argv], { now });
    },
    async goVerify(old) {
      const { base, key } = logged;
      return go?.run([`${base}/log`, key.vkey, base, ...(old ? [old] : [])]);
    },
  };
  return logged;
}
