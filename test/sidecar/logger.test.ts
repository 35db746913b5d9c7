import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, defaultLogFormat, plainLine } from "../../sidecar/logger.ts";

function capture(format: "json" | "pretty", level = "info") {
  const out = new PassThrough();
  let text = "";
  out.on("data", (d) => {
    text += d;
  });
  return { logger: createLogger(level, format, out), text: () => text };
}

describe("log formats", () => {
  it("json: one pino record per line, with its fields, for a log collector", () => {
    const { logger, text } = capture("json");
    logger.info({ reviews: 131, build_ms: 1834 }, "serving build");
    const [line, rest] = text().split("\n");
    expect(rest).toBe("");
    expect(JSON.parse(line as string)).toMatchObject({
      level: 30,
      msg: "serving build",
      reviews: 131,
      build_ms: 1834,
      service: "public-reviews",
    });
  });

  it("pretty: one plain line per build, with the time and what happened", () => {
    const { logger, text } = capture("pretty");
    logger.info({ reviews: 131, build_ms: 1834, dir: "/x" }, "serving build");
    expect(text()).toMatch(/^\d\d:\d\d:\d\d built in 1\.8 s, 131 reviews, serving\n$/);
  });

  it("pretty: a failed build says so once, then lists its problems one per line", () => {
    const { logger, text } = capture("pretty");
    logger.error(
      { problems: ["a.yaml: line 3: the rating is empty — write a whole number from 1 to 5", "b.yaml: line 1: x"] },
      "the save was not published; still serving the last good build",
    );
    expect(text().replace(/^\d\d:\d\d:\d\d /, "")).toBe(
      "error: the save was not published; still serving the last good build\n" +
        "  a.yaml: line 3: the rating is empty — write a whole number from 1 to 5\n" +
        "  b.yaml: line 1: x\n",
    );
  });

  it("pretty: an error's message, not its stack; a request line only at debug", () => {
    const { logger, text } = capture("pretty", "debug");
    logger.warn({ err: new Error("disk full") }, "content watcher error");
    logger.debug({ method: "GET", url: "/", status: 200, ms: 1.234 }, "request");
    const lines = text().split("\n");
    expect(lines[0]).toMatch(/ warning: content watcher error \(disk full\)$/);
    expect(lines[1]).toMatch(/ debug: GET \/ 200 1\.2 ms$/);
    expect(text()).not.toContain("    at ");
  });

  it("defaults to plain lines only for npm start at a terminal", () => {
    expect(defaultLogFormat({ sidecarOnly: false, isTTY: true })).toBe("pretty");
    expect(defaultLogFormat({ sidecarOnly: false, isTTY: undefined })).toBe("json");
    expect(defaultLogFormat({ sidecarOnly: true, isTTY: true })).toBe("json");
  });

  it("passes through a line that is not JSON", () => {
    expect(plainLine("hello")).toBe("hello\n");
  });
});
