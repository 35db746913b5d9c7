import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  ASTRO_BIN,
  astroBuildEnv,
  BUILD_NODE_FLAGS,
  distDirProblem,
  outDirProblem,
  PROJECT_ROOT,
} from "../../../src/build/astro-build.ts";
import { NATIVE_MEMORY_ENV } from "../../../src/build/native-memory.ts";

describe("the build's Node flags (src/build/astro-build.ts)", () => {
  it("are the ones npm run build passes, so every build runs alike", () => {
    const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8"));
    expect(pkg.scripts.build).toBe(["node", ...BUILD_NODE_FLAGS, ASTRO_BIN, "build"].join(" "));
  });

  it("are accepted by this Node, which would otherwise refuse to start the build", () => {
    const run = spawnSync(process.execPath, [...BUILD_NODE_FLAGS, "-e", ""], { encoding: "utf8", cwd: PROJECT_ROOT });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("set Rolldown's allocator options before anything loads, unless the caller set them", () => {
    const print = `process.stdout.write(JSON.stringify(Object.keys(${JSON.stringify(NATIVE_MEMORY_ENV)}).map((k) => process.env[k])))`;
    const env = { ...process.env };
    for (const name of Object.keys(NATIVE_MEMORY_ENV)) delete env[name];
    const read = (extra: NodeJS.ProcessEnv) =>
      JSON.parse(
        spawnSync(process.execPath, [...BUILD_NODE_FLAGS, "-e", print], {
          encoding: "utf8",
          cwd: PROJECT_ROOT,
          env: { ...env, ...extra },
        }).stdout,
      );
    expect(read({})).toEqual(Object.values(NATIVE_MEMORY_ENV));
    expect(Object.keys(NATIVE_MEMORY_ENV)).toContain("MIMALLOC_PURGE_DELAY");
    expect(read({ MIMALLOC_PURGE_DELAY: "500" })[0]).toBe("500");
  });
});

describe("a DIST_DIR Astro cannot build into (outDirProblem)", () => {
  it("is one whose path begins with the project's outside it, or the project or a folder holding it", () => {
    const root = "/srv/reviews";
    for (const ok of ["/srv/reviews/dist", "/srv/reviews/build/site", "/srv/dist", "/tmp/reviews-dist", "/srv/review"])
      expect(outDirProblem(ok, root)).toBeUndefined();
    expect(outDirProblem("/srv/reviews-dist", root)).toMatch(/^DIST_DIR must not begin with the project folder's path/);
    expect(outDirProblem("/srv/reviews.site/x", root)).toMatch(/^DIST_DIR must not begin/);
    for (const holding of ["/srv/reviews", "/srv/reviews/", "/srv", "/"])
      expect(outDirProblem(holding, root)).toMatch(/^DIST_DIR must not be the project folder or hold it/);
  });

  it("stops npm run build in one line naming DIST_DIR", () => {
    const run = spawnSync(process.execPath, [...BUILD_NODE_FLAGS, ASTRO_BIN, "build"], {
      encoding: "utf8",
      cwd: PROJECT_ROOT,
      env: { ...astroBuildEnv({ distDir: `${PROJECT_ROOT}-dist` }), BASE_URL: "https://reviews.example.com" },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`DIST_DIR must not begin with the project folder's path (${PROJECT_ROOT})`);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/Stack trace|\n\s+at /);
  });
});

describe("a DIST_DIR that is or holds the content or the state (distDirProblem)", () => {
  it("stops npm run build before it empties the folder, which held every review", () => {
    const content = mkdtempSync(path.join(os.tmpdir(), "pr-dist-is-content-"));
    try {
      cpSync(path.join(PROJECT_ROOT, "test/fixtures/basic-content"), content, { recursive: true });
      const run = spawnSync(process.execPath, [...BUILD_NODE_FLAGS, ASTRO_BIN, "build"], {
        encoding: "utf8",
        cwd: PROJECT_ROOT,
        env: { ...astroBuildEnv({ distDir: content, contentDir: content }), BASE_URL: "https://reviews.example.com" },
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(
        `DIST_DIR must not be CONTENT_DIR (${content}), hold it or be inside it: each build empties DIST_DIR, got ${JSON.stringify(content)}`,
      );
      expect(readdirSync(content)).toContain("business.yaml");
    } finally {
      rmSync(content, { recursive: true, force: true });
    }
  });

  it("is one that is or holds CONTENT_DIR, DATA_DIR or LOG_DIR, or lies inside the content or the logs", () => {
    const dirs = { CONTENT_DIR: "/srv/reviews/content", DATA_DIR: "/srv/state", LOG_DIR: undefined };
    const problem = (DIST_DIR: string, more = {}) => distDirProblem({ ...dirs, ...more, DIST_DIR }, "/srv/reviews");
    for (const ok of ["/srv/reviews/dist", "/srv/state/site", "/srv/site"]) expect(problem(ok)).toBeUndefined();
    expect(problem("/srv/reviews/content")).toMatch(/^DIST_DIR must not be CONTENT_DIR/);
    // Inside the content, it would empty a folder of it (reviews/2026) or litter it.
    expect(problem("/srv/reviews/content/reviews")).toMatch(/^DIST_DIR must not be CONTENT_DIR .* or be inside it/);
    expect(problem("/srv/state")).toMatch(/^DIST_DIR must not be DATA_DIR \(\/srv\/state\), hold it:/);
    expect(problem("/srv/state/log/x")).toMatch(/^DIST_DIR must not be DATA_DIR's review logs/);
    expect(problem("/srv/state/log-keys")).toMatch(/^DIST_DIR must not be DATA_DIR's log keys/);
    expect(problem("/srv/site", { LOG_DIR: "/srv/site/log" })).toMatch(/^DIST_DIR must not be LOG_DIR/);
  });

  it("is one that leads there through a link, as the file system resolves it", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "pr-dist-link-"));
    try {
      const content = path.join(root, "content");
      mkdirSync(path.join(content, "reviews"), { recursive: true });
      symlinkSync(content, path.join(root, "site"));
      symlinkSync(path.join(content, "reviews"), path.join(root, "pages"));
      const dirs = { CONTENT_DIR: content, DATA_DIR: path.join(root, "data"), LOG_DIR: undefined };
      const problem = (DIST_DIR: string) => distDirProblem({ ...dirs, DIST_DIR }, root);
      expect(problem(path.join(root, "site"))).toMatch(/^DIST_DIR must not be CONTENT_DIR/);
      expect(problem(path.join(root, "pages"))).toMatch(/^DIST_DIR must not be CONTENT_DIR .* or be inside it/);
      expect(problem(path.join(root, "site", "new-folder"))).toMatch(/^DIST_DIR must not be CONTENT_DIR/);
      expect(problem(path.join(root, "dist"))).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("a build with a bad variable", () => {
  it("says which variable and what it got, in one line, without a stack trace", () => {
    const run = spawnSync(process.execPath, [...BUILD_NODE_FLAGS, ASTRO_BIN, "build"], {
      encoding: "utf8",
      cwd: PROJECT_ROOT,
      env: { ...astroBuildEnv({ distDir: "out-never-written" }), PORT: "abc", BASE_URL: "https://reviews.example.com" },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('PORT must be an integer from 0 to 65535, got "abc"');
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/Stack trace|at loadConfig/);
  });
});

describe("the build's environment (astroBuildEnv)", () => {
  it("turns Astro's usage reports off unless the caller says otherwise", () => {
    expect(astroBuildEnv({ distDir: "out", env: { PATH: "" } }).ASTRO_TELEMETRY_DISABLED).toBe("1");
    expect(astroBuildEnv({ distDir: "out", env: { ASTRO_TELEMETRY_DISABLED: "" } }).ASTRO_TELEMETRY_DISABLED).toBe("");
  });
});
