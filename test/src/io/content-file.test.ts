import { execFile, execFileSync } from "node:child_process";
import { mkdir, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { checkContentDir } from "../../../src/io/content-check.ts";
import { buildSite } from "../../helpers/build-site.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

/**
 * Content never leaves content/: a symbolic link out of the folder, or a special file, is refused
 * unread by `npm run check` and by the build, naming the link and never what it points to, so
 * nothing of the outside file can reach the site or a log.
 */

const ROOT = path.resolve(import.meta.dirname, "../../..");
const FIXTURE = path.join(ROOT, "test/fixtures/basic-content");
const MARKER = "MARKER-0f3c9a-outside-the-content-folder";
const NOW = new Date("2026-11-01T00:00:00Z");
const run = promisify(execFile);

/** A review that would be valid and published, its text holding the marker. */
const REVIEW = `date: 2026-01-15
published_at: "2026-01-15T10:00:00Z"
rating: 5
author: Outside O.
title: From outside
text: |
  ${MARKER} this text lives outside the content folder and must never be published.
source:
  platform: direct
verification:
  method: invoice
  verified_on: 2026-01-15
`;

/** Not a review at all: what a link to /etc/passwd would be read as. */
const NOT_YAML = `root:x:0:0:${MARKER}:/root:/bin/bash\n{{ [ not: yaml\n`;

const temp = tempFolders();
let outside: string;

beforeAll(async () => {
  outside = await temp.make("pr-outside-");
  await writeFile(path.join(outside, "review.yaml"), REVIEW);
  await writeFile(path.join(outside, "passwd"), NOT_YAML);
  await mkdir(path.join(outside, "2026"));
  await writeFile(path.join(outside, "2026/2026-01-15-outside-o.yaml"), REVIEW);
});

/** A copy of the fixture with a reviews/2026/ folder, changed by `arrange`. */
async function contentWith(arrange: (dir: string) => Promise<void>): Promise<string> {
  const dir = await temp.copy(FIXTURE, "pr-links-");
  await mkdir(path.join(dir, "reviews/2026"), { recursive: true });
  await arrange(dir);
  return dir;
}

/** `npm run check` as an editor or a pull-request check runs it. */
async function npmCheck(dir: string): Promise<{ code: number; output: string }> {
  const env = {
    ...process.env,
    // vitest exports Vite's BASE_URL ("/") into process.env, which the config refuses.
    BASE_URL: "http://localhost:4321",
    CONTENT_DIR: dir,
    PATH: `${path.join(ROOT, "node_modules/.bin")}:${process.env.PATH}`,
  };
  try {
    const { stdout, stderr } = await run("npm", ["run", "--silent", "check"], { cwd: ROOT, env });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

describe("a symbolic link out of the content folder", () => {
  it("fails npm run check naming the link, without the marker or the link's target in the output", async () => {
    const dir = await contentWith(async (d) => {
      await symlink(path.join(outside, "review.yaml"), path.join(d, "reviews/2026/2026-01-15-outside-o.yaml"));
      await symlink(path.join(outside, "passwd"), path.join(d, "reviews/2026/2026-02-01-passwd.yaml"));
    });
    const { code, output } = await npmCheck(dir);
    expect(code, output).toBe(1);
    expect(output).toContain("reviews/2026/2026-01-15-outside-o.yaml: (file): is a symbolic link to something outside");
    expect(output).toContain("reviews/2026/2026-02-01-passwd.yaml: (file): is a symbolic link to something outside");
    expect(output).not.toContain(MARKER);
    expect(output).not.toContain(outside);
  }, 60_000);

  it("is refused for business.yaml, the insights, and a year folder that is itself a link", async () => {
    const dir = await contentWith(async (d) => {
      await rm(path.join(d, "reviews/2026"), { recursive: true });
      await symlink(path.join(outside, "2026"), path.join(d, "reviews/2026"));
      await rm(path.join(d, "business.yaml"));
      await symlink(path.join(outside, "passwd"), path.join(d, "business.yaml"));
    });
    const report = await checkContentDir(dir, { now: NOW });
    expect(report.ok).toBe(false);
    const problems = report.ok ? "" : report.problems.join("\n");
    expect(problems).toMatch(/business\.yaml: \(file\): is a symbolic link to something outside/);
    expect(problems).toMatch(/reviews\/2026: \(file\): is a symbolic link to something outside/);
    expect(problems).not.toContain(MARKER);

    const insights = await contentWith(async (d) => {
      await mkdir(path.join(d, "insights"), { recursive: true });
      await rm(path.join(d, "insights/faq.yaml"), { force: true });
      await symlink(path.join(outside, "passwd"), path.join(d, "insights/faq.yaml"));
    });
    const second = await checkContentDir(insights, { now: NOW });
    expect(second.ok ? [] : second.problems).toEqual([
      expect.stringMatching(/insights\/faq\.yaml: \(file\): is a symbolic link/),
    ]);
  });

  it("is refused for the plain files of a reviews folder that is itself a link out", async () => {
    // The files are plain, and their year folder is no link: only the reviews folder leads out.
    const dir = await contentWith(async (d) => {
      await rm(path.join(d, "reviews"), { recursive: true });
      await symlink(outside, path.join(d, "reviews"));
    });
    const report = await checkContentDir(dir, { now: NOW });
    expect(report.ok ? [] : report.problems).toContainEqual(
      expect.stringMatching(
        /reviews\/2026\/2026-01-15-outside-o\.yaml: \(file\): is a symbolic link to something outside/,
      ),
    );
    expect(report.ok ? "" : report.problems.join("\n")).not.toContain(MARKER);
  });

  it("reads the plain files of a year folder that links inside the folder", async () => {
    const dir = await contentWith(async (d) => {
      await rm(path.join(d, "reviews/2026"), { recursive: true });
      await mkdir(path.join(d, "archive/2026"), { recursive: true });
      await writeFile(path.join(d, "archive/2026/2026-01-15-outside-o.yaml"), REVIEW);
      await symlink("../archive/2026", path.join(d, "reviews/2026"));
    });
    const report = await checkContentDir(dir, { now: NOW });
    expect(report.ok ? report.content.reviews.map((r) => r.id) : report.problems).toContain("2026-01-15-outside-o");
  });

  it("is followed when it stays inside the folder", async () => {
    const dir = await contentWith(async (d) => {
      await mkdir(path.join(d, "drafts"));
      await writeFile(path.join(d, "drafts/ready.yaml"), REVIEW);
      await symlink("../../drafts/ready.yaml", path.join(d, "reviews/2026/2026-01-15-outside-o.yaml"));
    });
    const report = await checkContentDir(dir, { now: NOW });
    expect(report.ok ? report.content.reviews.map((r) => r.id) : report.problems).toContain("2026-01-15-outside-o");
  });

  it("never reaches a build: it fails naming the link, and nothing of the file is printed or published", async () => {
    const dir = await contentWith(async (d) => {
      await symlink(path.join(outside, "review.yaml"), path.join(d, "reviews/2026/2026-01-15-outside-o.yaml"));
    });
    const build = await buildSite(dir, { BASE_URL: "https://reviews.test" });
    temp.add(build.distDir);
    expect(build.code).not.toBe(0);
    expect(build.stderr).toContain("reviews/2026/2026-01-15-outside-o.yaml: (file): is a symbolic link");
    expect(build.stdout + build.stderr).not.toContain(MARKER);
    const files = await readdir(build.distDir, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const f of files.filter((e) => e.isFile())) {
      expect(await readFile(path.join(f.parentPath, f.name), "utf8"), f.name).not.toContain(MARKER);
    }
  }, 300_000);
});

describe("a special file in the content folder", () => {
  it("is refused unread: a named pipe would block the build, a folder named .yaml is not a review", async () => {
    const dir = await contentWith(async (d) => {
      execFileSync("mkfifo", [path.join(d, "reviews/2026/2026-03-01-pipe.yaml")]);
      await mkdir(path.join(d, "reviews/2026/2026-03-02-folder.yaml"));
    });
    const report = await checkContentDir(dir, { now: NOW });
    const problems = report.ok ? [] : report.problems;
    expect(problems).toContainEqual(
      expect.stringMatching(/2026-03-01-pipe\.yaml: \(file\): is a named pipe, not a file/),
    );
    expect(problems).toContainEqual(
      expect.stringMatching(/2026-03-02-folder\.yaml: \(file\): is a folder, not a file/),
    );
  });
});

describe("a content file's encoding", () => {
  it("refuses a file that is not UTF-8, naming its line, and an empty one, and reads one that starts with a byte-order mark", async () => {
    const latin1 = await contentWith(async (dir) => {
      const text = REVIEW.replace("author: Outside O.", "author: Müller K.").replace(MARKER, "fine");
      await writeFile(path.join(dir, "reviews/2026/2026-01-15-muller-k.yaml"), Buffer.from(text, "latin1"));
    });
    const refused = await checkContentDir(latin1, { now: NOW });
    expect(refused.ok).toBe(false);
    expect(refused.ok ? [] : refused.problems).toEqual([
      expect.stringMatching(
        /2026-01-15-muller-k\.yaml: line 4: \(file\): is not UTF-8 text \(saved in another encoding, such as Latin-1 or Windows-1252\?\): save it as UTF-8/,
      ),
    ]);
    const bom = await contentWith(async (dir) => {
      const text = REVIEW.replace("author: Outside O.", "author: Müller K.").replace(MARKER, "fine");
      await writeFile(path.join(dir, "reviews/2026/2026-01-15-muller-k.yaml"), `\uFEFF${text}`);
    });
    const empty = await contentWith((dir) =>
      writeFile(path.join(dir, "reviews/2026/2026-01-16-empty-e.yaml"), "# later\n"),
    );
    const refusedEmpty = await checkContentDir(empty, { now: NOW });
    expect(refusedEmpty.ok ? [] : refusedEmpty.problems).toEqual([
      expect.stringMatching(
        /2026-01-16-empty-e\.yaml: line 1: the file is empty — write the review's fields in it, or delete it$/,
      ),
    ]);
    const read = await checkContentDir(bom, { now: NOW });
    expect(read.ok ? read.content.reviews.find((r) => r.id === "2026-01-15-muller-k")?.author : read.problems).toBe(
      "Müller K.",
    );
  });
  it("says in words that business.yaml does not exist, not only ENOENT", async () => {
    const dir = await contentWith((d) => rm(path.join(d, "business.yaml")));
    const report = await checkContentDir(dir, { now: NOW });
    expect(report.ok ? [] : report.problems).toEqual([
      expect.stringMatching(
        /business\.yaml: \(file\): cannot read the file: it does not exist \(deleted or renamed, or a link to a file that is gone\) — restore it \(ENOENT\), got /,
      ),
    ]);
  });

  it("tells an empty business.yaml or insights file what it needs, not a review's advice to delete it", async () => {
    const dir = await contentWith(async (d) => {
      await writeFile(path.join(d, "business.yaml"), "# to do\n");
      await mkdir(path.join(d, "insights"));
      await writeFile(path.join(d, "insights/faq.yaml"), "");
    });
    const report = await checkContentDir(dir, { now: NOW });
    expect(report.ok ? [] : report.problems).toEqual([
      expect.stringMatching(
        /business\.yaml: line 1: the file is empty — write the practice's details in it \(name, description, url, telephone, address, geo, opening_hours, technicians, services, service_areas\), or restore the committed one with git; the site cannot be built without them$/,
      ),
      expect.stringMatching(
        /insights\/faq\.yaml: line 1: the file is empty — write its entries in it, or delete it: the file is optional \(docs\/insights\.md\)$/,
      ),
    ]);
  });
});

describe("a file the check cannot read", () => {
  it("hides no other problem: a file that is not UTF-8, a name that is not UTF-8 and a bad rating are all listed", async () => {
    const dir = await contentWith(async (d) => {
      const year = path.join(d, "reviews/2026");
      const text = REVIEW.replace(MARKER, "fine");
      await writeFile(
        path.join(year, "2026-01-15-muller-k.yaml"),
        Buffer.from(text.replace("Outside", "Müller"), "latin1"),
      );
      await writeFile(
        Buffer.concat([Buffer.from(`${year}/2026-01-16-`), Buffer.from([0xff, 0xfe]), Buffer.from(".yaml")]),
        text,
      );
      await writeFile(path.join(year, "2026-01-17-seven-s.yaml"), text.replace("rating: 5", "rating: 7"));
    });
    const { code, output } = await npmCheck(dir);
    expect(code, output).toBe(1);
    expect(output).toMatch(/2026-01-15-muller-k\.yaml: line 4: \(file\): is not UTF-8 text/);
    expect(output).toMatch(
      /2026-01-16-\uFFFD\uFFFD\.yaml": \(file\): the file name is not valid UTF-8 \(byte by byte: 2026-01-16-\\xff\\xfe\.yaml\) — rename the file/,
    );
    expect(output).toMatch(/2026-01-17-seven-s\.yaml: line 3: rating: expected a whole number from 1 to 5, got 7/);
    expect(output).not.toContain("ENOENT");
  }, 60_000);
});
