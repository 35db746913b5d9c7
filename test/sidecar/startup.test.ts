import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildIsStale } from "../../sidecar/build/build-staleness.ts";
import { ConfigError, loadConfig, withListeningPort } from "../../src/config.ts";
import { buildSite, tempDistDir, testLogKey } from "../helpers/build-site.ts";

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
  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["BASE_URL", "not a url"],
    ["BASE_URL", "ftp://example.com"],
    // An empty query or fragment, or a password without a user, is still not a bare origin.
    ["BASE_URL", "https://example.com/?"],
    ["BASE_URL", "https://example.com/#"],
    ["BASE_URL", "https://user@example.com"],
    // The review log's origin, its host and path, names its signing key, which holds no "+".
    ["BASE_URL", "https://example.com/c++reviews"],
    // Port 0 is where a server listens on any free port; permalinks and hub topics there reach nothing.
    ["BASE_URL", "http://localhost:0"],
    ["BASE_URL", "https://example.com:00"],
    ["HUB_URL", "not a url"],
    ["HUB_URL", "ftp://hub.example.com/"],
    ["LOG_LEVEL", "loud"],
    ["HUB_ALLOW_PRIVATE_CALLBACKS", "maybe"],
    ["HUB_RETRY_BASE_MS", "-5"],
    ["UNFINISHED_REVIEWS", "later"],
    ["LOG_FORMAT", "yaml"],
    ["ACCESS_LOG", "sometimes"],
    // A folder named by a stray space (`DATA_DIR= ` in an env file) would be created and used.
    ["DATA_DIR", " "],
    ["DIST_DIR", "dist "],
    ["LOG_DIR", " "],
    ["CONTENT_DIR", " content"],
    // No IPv4 address, and no name either: getaddrinfo would refuse it only when listening.
    ["HOST", "999.1.1.1"],
    ["HOST", "[reviews.example]"],
    // An entry naming no host matches no Origin: the browsers it was meant for would all get 403.
    ["MCP_ALLOWED_ORIGINS", "*.app.example"],
    ["MCP_ALLOWED_ORIGINS", "https://*.app.example"],
    ["MCP_ALLOWED_ORIGINS", "https://app.example, *"],
    ["MCP_ALLOWED_ORIGINS", " , "],
  ])("rejects %s=%s, naming the variable and the value", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(
      new RegExp(`${name}.*${JSON.stringify(value).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
    );
  });

  it("names both spellings a flag takes, as the docs write LOG_NEW=1", () => {
    expect(() => loadConfig({ LOG_NEW: "yes" })).toThrow('LOG_NEW must be true or 1, false or 0, got "yes"');
  });

  it("rejects a BASE_URL with a password without echoing the password", () => {
    expect(() => loadConfig({ BASE_URL: "https://u:s3cret@reviews.example" })).toThrow(
      'BASE_URL must be an http(s) URL without query, fragment or credentials, got "https://u:***@reviews.example/"',
    );
    expect(() => loadConfig({ BASE_URL: "https://u:s3cret@reviews.example" })).not.toThrow(/s3cret/);
  });

  it("rejects a HUB_URL with credentials, which the ping cannot send, without echoing the password", () => {
    expect(() => loadConfig({ HUB_URL: "https://ping:s3cret@hub.example/hub" })).toThrow(
      'HUB_URL must be an http(s) URL without a user name or password (the ping cannot send them), got "https://ping:***@hub.example/hub"',
    );
  });

  it("listens on HOST=[::1], an IPv6 address written as a URL writes it", async () => {
    const { HOST } = loadConfig({ HOST: "[::1]" });
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, HOST, resolve));
    expect(server.address()).toMatchObject({ address: "::1", family: "IPv6" });
    await new Promise((resolve) => server.close(resolve));
  });

  it("says a DATABASE_URL that is no URL is no URL, not that it has no scheme, and echoes no password", () => {
    for (const value of [
      "postgres://app:s3cret@db.example:five/reviews",
      "postgres://app:s3cret@[db.example/reviews",
    ]) {
      expect(() => loadConfig({ DATABASE_URL: value })).toThrow(
        "DATABASE_URL must be a postgres:// URL, got a value that does not parse as a URL",
      );
      expect(() => loadConfig({ DATABASE_URL: value })).not.toThrow(/s3cret/);
    }
    expect(() => loadConfig({ DATABASE_URL: "mysql://app:s3cret@db.example/reviews" })).toThrow(
      /DATABASE_URL must be a postgres:\/\/ URL, got mysql:$/,
    );
  });

  it("applies the documented defaults", () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(4321);
    expect(c.HOST).toBe("127.0.0.1");
    expect(c.BASE_URL).toBe("http://localhost:4321");
    expect(c.hubUrl).toBe("http://localhost:4321/api/websub/hub");
    expect(c.HUB_ALLOW_PRIVATE_CALLBACKS).toBe(false);
  });

  it("derives BASE_URL from PORT when it is unset, and keeps an explicit one", () => {
    const derived = loadConfig({ PORT: "4601" });
    expect(derived).toMatchObject({
      BASE_URL: "http://localhost:4601",
      baseUrlExplicit: false,
      hubUrl: "http://localhost:4601/api/websub/hub",
    });
    // PORT=0: npm start learns the real port before its first build.
    expect(withListeningPort(loadConfig({ PORT: "0" }), 39123).BASE_URL).toBe("http://localhost:39123");
    const explicit = loadConfig({ PORT: "4601", BASE_URL: "https://reviews.example.com/" });
    expect(explicit).toMatchObject({ BASE_URL: "https://reviews.example.com", baseUrlExplicit: true });
    expect(withListeningPort(explicit, 39123).BASE_URL).toBe("https://reviews.example.com");
  });

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
