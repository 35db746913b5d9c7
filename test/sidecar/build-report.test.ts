import pino from "pino";
import { describe, expect, it } from "vitest";
import { BuildReport } from "../../sidecar/build-report.ts";
import type { AstroBuildResult } from "../../src/build/astro-build.ts";

const PROBLEM = "content/reviews/2026/maria-g.yaml:4: rating: expected an integer from 1 to 5, got 6";
const build = (over: Partial<AstroBuildResult>): AstroBuildResult => ({
  code: 0,
  stdout: "",
  stderr: "",
  wallMs: 1,
  leftOut: [],
  ...over,
});
const failedBuild = build({ code: 1, stderr: "boom", problems: [PROBLEM] });

function logged() {
  const lines: { msg: string; problems?: string[] }[] = [];
  return { lines, logger: pino({ level: "info" }, { write: (l: string) => void lines.push(JSON.parse(l)) }) };
}

describe("BuildReport", () => {
  it("names the problems the build sent, in the terminal and on the page, without checking anything again", () => {
    const { lines, logger } = logged();
    const report = new BuildReport(logger);
    report.failed(failedBuild);
    expect(lines).toEqual([
      expect.objectContaining({
        msg: "the save was not published; still serving the last good build",
        problems: [PROBLEM],
      }),
    ]);
    expect(report.notice?.html).toContain("maria-g.yaml:4: rating: expected an integer from 1 to 5, got 6");
  });

  it("calls the start's failed build no save, and says the earlier build in DIST_DIR is served", () => {
    const { lines, logger } = logged();
    new BuildReport(logger).failed(failedBuild, true);
    expect(lines).toEqual([
      expect.objectContaining({
        msg: "the site could not be built; serving the earlier build in DIST_DIR",
        problems: [PROBLEM],
      }),
    ]);
  });

  it("shows the end of the build's output when the build sent no problems", () => {
    const { lines, logger } = logged();
    new BuildReport(logger).failed(build({ code: 1, stdout: "\nvite: out of memory\n", stderr: "" }));
    expect(lines[0]?.problems).toEqual([
      "the site could not be built, and not because of the content; the build's last words were:",
      "vite: out of memory",
    ]);
  });

  it("never shows a stack trace's frames or raw control characters from the build's output", () => {
    const { lines, logger } = logged();
    const report = new BuildReport(logger);
    report.failed(build({ code: 1, stderr: "RangeError: boom\u001b[2J\n    at f (/somewhere/file.ts:1:1)\n" }));
    const problems = lines[0]?.problems ?? [];
    expect(problems.join("\n")).toContain("RangeError: boom");
    expect(problems.join("\n")).not.toContain("/somewhere/file.ts");
    expect([...(report.notice?.html ?? "")].some((c) => c.charCodeAt(0) < 0x20 && c !== "\n")).toBe(false);
  });

  it("names the scaffolds a successful build left out", () => {
    const { lines, logger } = logged();
    new BuildReport(logger).succeeded(build({ leftOut: ["content/reviews/2026/new.yaml"] }));
    expect(lines.map((l) => l.msg)).toEqual([
      "content/reviews/2026/new.yaml: not filled in yet (text is empty); left out until it is",
    ]);
  });

  it("keeps a failed save's notice while the build it was raised over is served, and drops it the instant another is", () => {
    const report = new BuildReport(logged().logger);
    let served: object = { build: 1 };
    report.follow(() => served);
    report.failed(failedBuild);
    expect(report.notice).toBeDefined();
    // A later success that is not yet live changes nothing.
    report.succeeded(build({}));
    expect(report.notice).toBeDefined();
    served = { build: 2 };
    expect(report.notice).toBeUndefined();
  });

  it("ties a failure from before anything was served to the build served first", () => {
    const report = new BuildReport(logged().logger);
    report.failed(failedBuild);
    let served: object = { build: "adopted" };
    report.follow(() => served);
    expect(report.notice).toBeDefined();
    served = { build: "next" };
    expect(report.notice).toBeUndefined();
  });
});
