import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeEntry } from "../../src/log/entries.ts";
import { signerFromKey } from "../../src/log/note-keys.ts";
import { appendEntries, EMPTY_LOG, rootOf, signedCheckpoint, tileFiles } from "../../src/log/tree.ts";
import { buildSite, testLogKey } from "../helpers/build-site.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

/**
 * Two builds continue one published checkpoint from separate LOG_DIRs (two CI runs at once). The
 * other one is deployed while this one renders its pages: the site's checkpoint, read again at
 * the end of this build, is one this build's log does not extend, and deploying it would fork the
 * log. The site is a server that publishes an empty log until the build has read it once, and the
 * other build's log of one entry from then on.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const temp = tempFolders();

const served = new Map<string, Uint8Array | string>();
let checkpointsRead = 0;
let deployedMeanwhile = new Map<string, Uint8Array | string>();
const server = createServer((req, res) => {
  const rel = (req.url ?? "").replace(/^\/log\//, "");
  if (rel === "checkpoint" && ++checkpointsRead === 2) for (const [k, v] of deployedMeanwhile) served.set(k, v);
  const body = served.get(rel);
  res.writeHead(body === undefined ? 404 : 200).end(body);
});
let base = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("a build overtaken by another build's deploy", { timeout: 600_000 }, () => {
  it("fails before its log is published, naming both sizes and roots", async () => {
    const key = testLogKey(base);
    const signer = signerFromKey(key.skey);
    const origin = signer.name;
    served.set("checkpoint", signedCheckpoint(EMPTY_LOG, origin, signer));
    const other = appendEntries(EMPTY_LOG, [
      encodeEntry({
        event: "published",
        id: "2025-01-01-other",
        logged: "2026-01-02",
        commitment: `${"A".repeat(43)}=`,
      }),
    ]);
    deployedMeanwhile = new Map<string, Uint8Array | string>([
      ...tileFiles(other),
      ["checkpoint", signedCheckpoint(other, origin, signer)],
    ]);
    const logDir = await temp.make("pr-log-overtaken-");
    const b = await buildSite(FIXTURE, { BASE_URL: base, LOG_DIR: logDir, LOG_SIGNING_KEY: key.skey });
    temp.add(b.distDir);
    expect(b.stderr).toContain(`continuing the log published at ${base}/log (0 entries)`);
    expect(b.code).toBe(1);
    const theirs = Buffer.from(rootOf(other)).toString("base64");
    expect(b.stderr).toMatch(
      new RegExp(
        `review log: ${base}/log/checkpoint now publishes a log of 1 entries \\(root ${theirs.replace(/[+/]/g, "\\$&")}\\), which this build's log of \\d+ entries \\(root [A-Za-z0-9+/]{43}=, root [A-Za-z0-9+/]{43}= at size 1\\) does not extend: another build was deployed while this one ran`,
      ),
    );
    expect(b.stderr).toContain(`Do not deploy this build: it would fork the log`);
    expect(checkpointsRead).toBe(2);
  });
});
