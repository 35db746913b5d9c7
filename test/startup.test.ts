import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const NODE = path.join(ROOT, "node_modules/.bin/node");

function start(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE, ["sidecar/start.ts", ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LOG_LEVEL: "silent", ...env },
    });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const kill = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("close", (code) => {
      clearTimeout(kill);
      resolve({ code, stderr });
    });
  });
}

describe("configuration", () => {
  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["BASE_URL", "not a url"],
    ["BASE_URL", "ftp://example.com"],
    ["LOG_LEVEL", "loud"],
    ["HUB_ALLOW_PRIVATE_CALLBACKS", "maybe"],
    ["HUB_RETRY_BASE_MS", "-5"],
  ])("rejects %s=%s, naming the variable and the value", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(
      new RegExp(`${name}.*${JSON.stringify(value).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
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

  it("fails fast at start-up when a variable is malformed", async () => {
    const { code, stderr } = await start(["--sidecar-only"], { PORT: "not-a-port" });
    expect(code).toBe(1);
    expect(stderr).toContain('PORT must be an integer from 0 to 65535, got "not-a-port"');
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
});
