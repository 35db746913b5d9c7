import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createAuthority, issueServerCert, type KeyAndCert } from "../scripts/bench/local-ca.ts";
import { makeRunFolders, type TestRunFolders } from "./helpers/run-folders.ts";

declare module "vitest" {
  interface ProvidedContext {
    /** Certificates for HTTPS test servers on loopback; `trusted` chains to the CA in NODE_EXTRA_CA_CERTS. */
    testTls: { trusted: KeyAndCert; untrusted: KeyAndCert };
    /** This run's temporary folders (test/helpers/run-folders.ts), removed when the run ends. */
    testRun: TestRunFolders;
  }
}

/**
 * Runs once in the main vitest process, before any worker starts. Node reads
 * NODE_EXTRA_CA_CERTS only when a process starts, so the CA must be in place here: forked workers
 * inherit this environment. Any CA the caller already trusted that way is kept. TMPDIR is set the
 * same way, to a folder of this run's that goes when the run ends.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = await makeRunFolders();
  project.provide("testRun", run.folders);
  const previousTmp = process.env.TMPDIR;
  const ca = createAuthority("public-reviews test CA");
  const previous = process.env.NODE_EXTRA_CA_CERTS;
  const inherited = previous ? await readFile(previous, "utf8").catch(() => "") : "";
  const bundle = path.join(run.folders.outside, "ca.pem");
  await writeFile(bundle, `${inherited}${inherited.endsWith("\n") || !inherited ? "" : "\n"}${ca.cert}`);
  process.env.NODE_EXTRA_CA_CERTS = bundle;
  process.env.TMPDIR = run.folders.outside;
  project.provide("testTls", {
    trusted: issueServerCert({ dnsNames: ["localhost"], ips: ["127.0.0.1", "::1"], issuer: ca }),
    untrusted: issueServerCert({ dnsNames: ["localhost"], ips: ["127.0.0.1", "::1"] }),
  });
  return async () => {
    if (previous === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
    else process.env.NODE_EXTRA_CA_CERTS = previous;
    if (previousTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmp;
    await run.remove();
  };
}
