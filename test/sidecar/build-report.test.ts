import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BuildReport } from "../../sidecar/build-report.ts";
import { createLogger } from "../../sidecar/logger.ts";

const failedBuild = { code: 1, stdout: "", stderr: "boom", wallMs: 1 };

describe("BuildReport", async () => {
  // An empty content folder: the check finds problems of its own, which the notice names.
  const dir = await mkdtemp(path.join(os.tmpdir(), "pr-build-report-"));
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const logger = createLogger("silent", "json");

  it("keeps a failed save's notice while the build it was raised over is served, and drops it the instant another is", async () => {
    const report = new BuildReport(logger, dir, {});
    let served: object = { build: 1 };
    report.follow(() => served);
    await report.failed(failedBuild, new Date("2026-11-27T00:00:00Z"));
    expect(report.notice).toBeDefined();
    // A later success that is not yet live changes nothing.
    report.succeeded({ code: 0, stdout: "", stderr: "", wallMs: 1 });
    expect(report.notice).toBeDefined();
    served = { build: 2 };
    expect(report.notice).toBeUndefined();
  });

  it("ties a failure from before anything was served to the build served first", async () => {
    const report = new BuildReport(logger, dir, {});
    await report.failed(failedBuild, new Date("2026-11-27T00:00:00Z"));
    let served: object = { build: "adopted" };
    report.follow(() => served);
    expect(report.notice).toBeDefined();
    served = { build: "next" };
    expect(report.notice).toBeUndefined();
  });
});
