import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdtemp, readdir, readFile, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDistDir } from "../helpers/build-site.ts";
import { killTree, type NpmProcess, startNpm } from "../helpers/npm-process.ts";

/**
 * `BASE_URL=<CDN origin> npm run build` beside a running `npm start` with the same DIST_DIR: the
 * build used to write through npm start's `dist` symlink into the build being served (its
 * feed.xml then linked to the CDN's origin). It must leave every served byte and every file of the
 * served build as they were, and say why it stopped.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const run = promisify(execFile);
let content: string;
let dist: string;
let npm: NpmProcess;

/** Every file under `dir` with the SHA-256 of its bytes. */
async function fingerprint(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    out[path.relative(dir, file)] = createHash("sha256")
      .update(await readFile(file))
      .digest("hex");
  }
  return out;
}

const served = async (p: string) => Buffer.from(await (await fetch(`${npm.url}${p}`)).arrayBuffer()).toString("base64");

beforeAll(async () => {
  content = await mkdtemp(path.join(os.tmpdir(), "pr-cdn-content-"));
  dist = await tempDistDir("pr-cdn-dist-");
  await cp(FIXTURE, content, { recursive: true });
  npm = await startNpm(["start"], {
    CONTENT_DIR: content,
    DIST_DIR: dist,
    DATA_DIR: `${dist}-data`,
    LOG_LEVEL: "warn",
  });
}, 1_500_000);

afterAll(async () => {
  killTree(npm);
  await rm(content, { recursive: true, force: true });
  await rm(`${dist}-data`, { recursive: true, force: true });
});

describe("a CDN build beside npm start", () => {
  it("changes no served byte and no file of the served build, and says how to build elsewhere", {
    timeout: 750_000,
  }, async () => {
    const folder = await realpath(dist);
    const files = await fingerprint(folder);
    const pages = ["/", "/feed.xml", "/reviews.json", "/insights.json"];
    const bytes = await Promise.all(pages.map(served));

    const build = await run("npm", ["run", "build"], {
      cwd: ROOT,
      env: {
        PATH: `${path.join(ROOT, "node_modules/.bin")}:${process.env.PATH}`,
        HOME: process.env.HOME ?? "",
        TMPDIR: os.tmpdir(),
        BASE_URL: "https://cdn.example.test",
        CONTENT_DIR: content,
        DIST_DIR: dist,
        HUB_URL: "off",
        npm_config_update_notifier: "false",
      },
    }).then(
      () => ({ code: 0, stderr: "" }),
      (err: { code: number; stderr: string; stdout: string }) => ({ code: err.code, stderr: err.stderr + err.stdout }),
    );
    expect(build.code).not.toBe(0);
    expect(build.stderr).toContain("is the build npm start (process");
    expect(build.stderr).toContain("DIST_DIR=dist-cdn");

    expect(await realpath(dist)).toBe(folder);
    expect(await fingerprint(folder)).toEqual(files);
    expect(await Promise.all(pages.map(served))).toEqual(bytes);
  });
});
