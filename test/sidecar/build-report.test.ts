import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
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

  it("names a file and value on the notice page quoted and escaped, and never shows stack frames", async () => {
    const content = await mkdtemp(path.join(os.tmpdir(), "pr-build-report-content-"));
    try {
      await cp(path.resolve(import.meta.dirname, "../fixtures/insights-content"), content, { recursive: true });
      const neck = path.join(content, "reviews/2024/2024-04-10-neck-pain.yaml");
      const text = await readFile(neck, "utf8");
      await writeFile(path.join(content, "reviews/2024/x\n<b>::error::<i>.yaml"), text);
      await writeFile(neck, text.replace("author: Gus L.", 'author: "Gus\\e[2J L."'));
      const report = new BuildReport(logger, content, { LOG_DIR: path.join(content, ".log") });
      await report.failed(failedBuild, new Date("2026-11-27T00:00:00Z"));
      const html = report.notice?.html ?? "";
      expect(html).toContain("&quot;");
      expect(html).toContain("x\\n&lt;b&gt;::error::&lt;i&gt;.yaml");
      expect(html).toContain("author: holds a control character (U+001B ESC");
      expect([...html].some((c) => c.charCodeAt(0) < 0x20)).toBe(false);

      // A failure the content does not explain: its last words, without the stack's frames.
      const crashed = {
        code: 1,
        stdout: "",
        stderr: "RangeError: boom\n    at f (/somewhere/file.ts:1:1)\n",
        wallMs: 1,
      };
      const fine = new BuildReport(logger, path.resolve(import.meta.dirname, "../fixtures/insights-content"), {
        LOG_DIR: path.join(content, ".log-fine"),
      });
      await fine.failed(crashed, new Date("2026-11-27T00:00:00Z"));
      expect(fine.notice?.html).toContain("RangeError: boom");
      expect(fine.notice?.html).not.toContain("/somewhere/file.ts");
    } finally {
      await rm(content, { recursive: true, force: true });
    }
  });
});
