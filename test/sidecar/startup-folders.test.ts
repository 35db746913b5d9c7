import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildIsStale } from "../../sidecar/build/build-staleness.ts";
import { buildSite, tempDistDir, testLogKey } from "../helpers/build-site.ts";

/**
 * What `npm start` and `npm run sidecar` do at start-up with the folders and the build they are
 * given: a stale build rebuilt, a build for another origin, a DIST_DIR that is the content folder
 * or another instance's, no build at all, a first build that fails. Each runs the real start script.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const NODE = path.join(ROOT, "node_modules/.bin/node");

function start(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<{ code: number | null; stderr: string; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE, ["sidecar/start.ts", ...args], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        TMPDIR: os.tmpdir(),
        LOG_LEVEL: "silent",
        ...env,
      },
    });
    let stderr = "";
    let output = "";
    child.stderr.on("data", (d) => {
      stderr += d;
      output += d;
    });
    child.stdout.on("data", (d) => {
      output += d;
    });
    const kill = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(kill);
      resolve({ code, stderr, output });
    });
  });
}

describe("configuration", () => {
  it("treats a build made for another origin, or without a review log, as stale, so npm start rebuilds", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "pr-stale-"));
    try {
      const content = path.join(dir, "content");
      const dist = path.join(dir, "dist");
      await mkdir(content);
      await mkdir(dist);
      const link =
        '<http://localhost:4321/api/websub/hub>; rel="hub", <http://localhost:4321/reviews.json>; rel="self"';
      await writeFile(
        path.join(dist, "_headers.json"),
        JSON.stringify({ version: 1, files: { "/reviews.json": { link } } }),
      );
      // A build from before the review log is stale whatever its origin.
      expect(await buildIsStale(content, dist, "http://localhost:4321")).toBe(true);
      await mkdir(path.join(dist, "log"));
      await writeFile(path.join(dist, "log", "checkpoint"), "localhost:4321/log\n0\n");
      // A log from before its entries committed to records is stale too: its records lack log_nonce.
      expect(await buildIsStale(content, dist, "http://localhost:4321")).toBe(true);
      await mkdir(path.join(dist, "log", "verifier", "scripts"), { recursive: true });
      await writeFile(path.join(dist, "log", "verifier", "scripts", "log-verify.ts.txt"), "");
      expect(await buildIsStale(content, dist, "http://localhost:4321")).toBe(false);
      expect(await buildIsStale(content, dist, "http://localhost:4601")).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses to run the sidecar without BASE_URL over a build made for another origin", async () => {
    const dist = await mkdtemp(path.join(os.tmpdir(), "pr-sidecar-origin-"));
    try {
      const link =
        '<https://reviews.example.com/api/websub/hub>; rel="hub", <https://reviews.example.com/reviews.json>; rel="self"';
      await writeFile(
        path.join(dist, "_headers.json"),
        JSON.stringify({ version: 1, files: { "/reviews.json": { link } } }),
      );
      const { code, stderr } = await start(["--sidecar-only"], { DIST_DIR: dist, PORT: "4601" });
      expect(code).toBe(1);
      expect(stderr).toContain(
        `BASE_URL is unset, so it would be http://localhost:4601, but ${dist} was built for https://reviews.example.com: set BASE_URL=https://reviews.example.com`,
      );
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });

  it("refuses a build without an explicit BASE_URL, naming the variable, before reading any content", async () => {
    const result = await buildSite(path.join(ROOT, "test/fixtures/basic-content"), { BASE_URL: "" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("BASE_URL is required for a build");
    expect(result.stdout + result.stderr).not.toMatch(/Stack trace:|\n\s+at /);
  }, 300_000); // Waits its turn on the machine-wide build lock.

  it("fails fast at start-up when a variable is malformed", async () => {
    const { code, stderr } = await start(["--sidecar-only"], { PORT: "not-a-port" });
    expect(code).toBe(1);
    expect(stderr).toContain('PORT must be an integer from 0 to 65535, got "not-a-port"');
  });

  it("fails fast at start-up on a folder variable of spaces, creating nothing", async () => {
    const cwd = await mkdtemp(path.join(os.tmpdir(), "pr-start-space-"));
    try {
      const { code, stderr } = await start(["--sidecar-only"], { DATA_DIR: " ", DIST_DIR: path.join(cwd, "dist") });
      expect(code).toBe(1);
      expect(stderr).toContain('DATA_DIR must be a folder path without spaces at either end, got " "');
      expect(await readdir(ROOT)).not.toContain(" ");
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  it("refuses to start on a DIST_DIR that is the content folder, which its builds would empty", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "pr-start-dist-content-"));
    try {
      await writeFile(path.join(dir, "business.yaml"), "name: x\n");
      const { code, stderr } = await start([], {
        CONTENT_DIR: dir,
        DIST_DIR: dir,
        DATA_DIR: `${dir}-data`,
      });
      expect(code).toBe(1);
      expect(stderr).toContain(`Cannot start: DIST_DIR must not be CONTENT_DIR (${dir}), hold it or be inside it`);
      expect(await readdir(dir)).toEqual(["business.yaml"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(`${dir}-data`, { recursive: true, force: true });
    }
  });

  it("exits and says to run npm run build when there is no build at all", async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), "pr-nodist-"));
    try {
      const { code, stderr } = await start(["--sidecar-only"], { DIST_DIR: empty, PORT: "0" });
      expect(code).toBe(1);
      expect(stderr).toContain("npm run build");
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it("refuses to start on a DIST_DIR another live npm start serves, leaving its record, link and builds alone", async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), "pr-two-starts-"));
    try {
      // As the first npm start leaves it: DIST_DIR a link into its builds, its PID (here, this
      // live test process) recorded beside it.
      const pid = process.pid;
      const dist = path.join(outside, "dist");
      await mkdir(path.join(`${dist}.builds`, "served"), { recursive: true });
      await symlink(path.join("dist.builds", "served"), dist);
      await writeFile(`${dist}.served-by`, `${pid}\n`);
      const { code, stderr } = await start([], {
        DIST_DIR: dist,
        DATA_DIR: path.join(outside, "data"),
        CONTENT_DIR: path.join(ROOT, "test/fixtures/basic-content"),
        PORT: "0",
      });
      expect(code).toBe(1);
      expect(stderr).toContain(`Cannot start: ${dist} is served by another npm start (process ${pid})`);
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(await readFile(`${dist}.served-by`, "utf8")).toBe(`${pid}\n`);
      expect(await readlink(dist)).toBe(path.join("dist.builds", "served"));
      expect(await readdir(`${dist}.builds`)).toEqual(["served"]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("says only that the site could not be built, and why, when the first build fails and there is no build to serve", async () => {
    const dist = await tempDistDir();
    const data = await mkdtemp(path.join(os.tmpdir(), "pr-start-data-"));
    try {
      const { code, stderr, output } = await start(
        [],
        {
          DIST_DIR: dist,
          DATA_DIR: data,
          CONTENT_DIR: path.join(ROOT, "test/fixtures/basic-content"),
          PORT: "0",
          LOG_LEVEL: "info",
          LOG_FORMAT: "pretty",
          // A valid key, but for another origin's log: every build fails the same way.
          LOG_SIGNING_KEY: testLogKey("https://elsewhere.example").skey,
          BUILD_WORKER_BUILDS: "0",
        },
        240_000,
      );
      expect(code).toBe(1);
      expect(stderr).toContain(
        `Cannot start: the site could not be built, and ${dist} holds no earlier build to serve:`,
      );
      expect(stderr).toContain("LOG_SIGNING_KEY is the key of the log elsewhere.example/log");
      expect(output).not.toContain("still serving");
      expect(output).not.toContain("was not published");
      expect(output).not.toContain("npm run build");
    } finally {
      await rm(data, { recursive: true, force: true });
    }
  }, 300_000);
});
