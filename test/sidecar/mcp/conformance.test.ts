import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../../helpers/build-site.ts";
import { type McpTestApp, startMcpApp } from "../../helpers/mcp-app.ts";

/**
 * The official conformance suite (@modelcontextprotocol/conformance, pinned in devDependencies)
 * against the real app on port 0. Checks that cannot apply to a read-only server without the
 * suite's `test_*` fixtures are listed, with reasons, in the expected-failures file; the CLI fails
 * on any other failure and on a listed check that passes.
 */

const CONTENT = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const CLI = path.resolve(import.meta.dirname, "../../../node_modules/@modelcontextprotocol/conformance/dist/index.js");
const EXPECTED_FAILURES = path.resolve(import.meta.dirname, "../../fixtures/mcp-conformance-expected-failures.yml");

/** 2025-era scenarios that pass outright, then the 2026-07-28 ones (read-only checks). */
const SCENARIOS = [
  "server-initialize",
  "server-session-lifecycle",
  "ping",
  "tools-list",
  "resources-list",
  "tools-call-error",
  "dns-rebinding-protection",
  "server-stateless",
  "caching",
  "http-header-validation",
  "sep-2164-resource-not-found",
];

let dist: string;
let app: McpTestApp;
let out: string;

beforeAll(async () => {
  const build = await buildSite(CONTENT, { BASE_URL: "https://reviews.test" });
  expect(build.code, build.stderr).toBe(0);
  dist = build.distDir;
  app = await startMcpApp(dist, { env: { BASE_URL: "https://reviews.test" } });
  out = await mkdtemp(path.join(os.tmpdir(), "mcp-conformance-"));
}, 600_000);

afterAll(async () => {
  await app?.close();
  if (dist) await rm(dist, { recursive: true, force: true });
  if (out) await rm(out, { recursive: true, force: true });
});

function conformance(scenario: string): Promise<{ code: number; output: string }> {
  const args = [CLI, "server", "--url", app.endpoint, "--scenario", scenario];
  args.push("--expected-failures", EXPECTED_FAILURES, "-o", path.join(out, scenario));
  return new Promise((resolve) => {
    execFile(process.execPath, args, { maxBuffer: 16 << 20, timeout: 180_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

describe("MCP conformance suite", () => {
  it.each(SCENARIOS)(
    "%s passes every check that applies",
    async (scenario) => {
      const { code, output } = await conformance(scenario);
      // The CLI colours its report; the summary line is "Passed: N/M, F failed, W warnings".
      const summary = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(stripVTControlCharacters(output));
      expect(summary, output).not.toBeNull();
      const [, passed, total, , warnings] = summary?.map(Number) ?? [];
      console.info(`conformance ${scenario}: ${passed}/${total} checks passed, ${warnings} warnings`);
      expect(code, output).toBe(0);
      expect(warnings, output).toBe(0);
      expect(passed).toBeGreaterThan(0);
    },
    240_000,
  );
});
