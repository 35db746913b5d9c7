import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HEAVY_TESTS } from "../vitest.config.ts";

/**
 * The layout rules of the README's "Layout" section, checked on the files themselves so they cannot
 * drift: the core (src/) depends on nothing at the edges, files stay small, MCP tools are adapters
 * over the core rather than over the HTTP routes, test/ mirrors the source folders, and a comment
 * that names a file under docs/ or test/ names one that exists.
 */

const ROOT = path.resolve(import.meta.dirname, "..");
const MAX_LINES = 300;

function filesUnder(dir: string, ext: RegExp): string[] {
  const abs = path.join(ROOT, dir);
  return readdirSync(abs, { recursive: true, encoding: "utf8" })
    .map((f) => path.posix.join(dir, f.split(path.sep).join("/")))
    .filter((f) => ext.test(f) && statSync(path.join(ROOT, f)).isFile());
}

const SOURCE = /\.(ts|mts|astro)$/;
const sources = ["src", "sidecar", "scripts"].flatMap((d) => filesUnder(d, SOURCE));

/**
 * The comments of a source file: `//` to the end of the line, and block comments. A `//` inside a
 * string (a URL) is read as a comment too, which only adds words to check.
 */
function commentsOf(text: string): string[] {
  return [...text.matchAll(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|<!--[\s\S]*?-->/g)].map((m) => m[0]);
}

/** `docs/…` and `test/…` paths in `comment`, without a trailing dot or an `#anchor`. */
function pathsNamedIn(comment: string): string[] {
  const found = comment.matchAll(/(?<![\w./-])((?:docs|test)\/[\w./-]*[\w-])/g);
  return [...found].map((m) => m[1] as string);
}

/** Repository paths of the relative modules a file imports (static, dynamic and type-only). */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const specs = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g)];
  return specs.map((m) => path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1] as string)));
}

describe("layout", () => {
  it("keeps the core free of imports from sidecar/ and scripts/", () => {
    const offending = sources
      .filter((f) => f.startsWith("src/"))
      .flatMap((f) => importsOf(f).map((to) => `${f} -> ${to}`))
      .filter((edge) => /-> (sidecar|scripts)\//.test(edge));
    expect(offending).toEqual([]);
  });

  it(`keeps every source file at ${MAX_LINES} lines or fewer`, () => {
    const long = sources
      .map((f) => ({ f, lines: readFileSync(path.join(ROOT, f), "utf8").split("\n").length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ f, lines }) => `${f}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it("names in comments only docs/ and test/ paths that exist", () => {
    const files = [...sources, "astro.config.mjs", ...filesUnder("test", SOURCE)];
    const dangling = files.flatMap((f) =>
      commentsOf(readFileSync(path.join(ROOT, f), "utf8"))
        .flatMap(pathsNamedIn)
        .filter((named) => statSync(path.join(ROOT, named), { throwIfNoEntry: false }) === undefined)
        .map((named) => `${f}: ${named}`),
    );
    expect([...new Set(dangling)]).toEqual([]);
  });

  it("lets MCP adapters reach the core without going through an HTTP route module", () => {
    const viaHttp = filesUnder("sidecar/mcp", SOURCE)
      .flatMap((f) => importsOf(f).map((to) => `${f} -> ${to}`))
      .filter((edge) => /-> sidecar\/http\//.test(edge));
    expect(viaHttp).toEqual([]);
  });

  /** Edges between folders that must not exist, as `from -> to` path prefixes. */
  const FORBIDDEN: [string, string, string][] = [
    ["sidecar/hub/", "sidecar/http/", "the hub is an edge of its own: it mounts on any app"],
    ["sidecar/db/", "sidecar/mcp/", "the database layer serves every edge and knows none"],
    ["scripts/", "test/", "scripts run without the test tree (test helpers are for tests)"],
  ];

  it.each(FORBIDDEN)("keeps %s free of imports from %s (%s)", (from, to) => {
    const offending = sources
      .filter((f) => f.startsWith(from))
      .flatMap((f) => importsOf(f).map((target) => `${f} -> ${target}`))
      .filter((edge) => edge.split(" -> ")[1]?.startsWith(to));
    expect(offending).toEqual([]);
  });

  it("mirrors src/, sidecar/ and scripts/ folders under test/", () => {
    const tests = filesUnder("test", /\.test\.ts$/).filter(
      (f) => !f.startsWith("test/fixtures/") && f !== "test/layout.test.ts",
    );
    const misplaced = tests.filter((f) => {
      const dir = path.posix.dirname(f).slice("test/".length);
      if (dir === "e2e") return false; // end to end: real builds, npm start, a browser
      if (!/^(src|sidecar|scripts)(\/|$)/.test(dir)) return true;
      return !statSync(path.join(ROOT, dir), { throwIfNoEntry: false })?.isDirectory();
    });
    expect(misplaced).toEqual([]);
  });

  it("names only test files that exist in vitest.config.ts's heavy list", () => {
    const missing = HEAVY_TESTS.filter((f) => !statSync(path.join(ROOT, f), { throwIfNoEntry: false })?.isFile());
    expect(missing).toEqual([]);
  });
});
