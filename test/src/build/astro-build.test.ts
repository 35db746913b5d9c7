import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ASTRO_BIN, astroBuildEnv, BUILD_NODE_FLAGS, PROJECT_ROOT } from "../../../src/build/astro-build.ts";

describe("the build's Node flags (src/build/astro-build.ts)", () => {
  it("are the ones npm run build passes, so every build runs alike", () => {
    const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8"));
    expect(pkg.scripts.build).toBe(["node", ...BUILD_NODE_FLAGS, ASTRO_BIN, "build"].join(" "));
  });

  it("are accepted by this Node, which would otherwise refuse to start the build", () => {
    const run = spawnSync(process.execPath, [...BUILD_NODE_FLAGS, "-e", ""], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});

describe("the build's environment (astroBuildEnv)", () => {
  it("turns Astro's usage reports off unless the caller says otherwise", () => {
    expect(astroBuildEnv({ distDir: "out", env: { PATH: "" } }).ASTRO_TELEMETRY_DISABLED).toBe("1");
    expect(astroBuildEnv({ distDir: "out", env: { ASTRO_TELEMETRY_DISABLED: "" } }).ASTRO_TELEMETRY_DISABLED).toBe("");
  });
});
