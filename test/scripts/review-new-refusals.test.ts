import { execFile } from "node:child_process";
import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { noLogs, reviewNew, reviewNewProcess, runAt } from "../helpers/review-new-run.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

/** What `npm run review:new` refuses, its environment or its options, saying why and writing nothing. */

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const run = promisify(execFile);

const temp = tempFolders();
const contentDir = () => temp.copy(FIXTURE, "pr-review-new-");

describe("npm run review:new", () => {
  it("refuses a malformed variable by naming it, without a stack trace, writing nothing", async () => {
    const dir = await contentDir();
    const failed = await reviewNewProcess(["--author", "X"], {
      ...process.env,
      CONTENT_DIR: dir,
      BASE_URL: "",
      PORT: "abc",
    }).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 1 });
    const { stderr } = failed as { stderr: string };
    expect(stderr).toContain('PORT must be an integer from 0 to 65535, got "abc"');
    expect(stderr).not.toMatch(/\n\s+at |file:\/\/|ConfigError/);
    expect(await readdir(path.join(dir, "reviews/2026")).catch(() => [])).not.toContainEqual(
      expect.stringMatching(/-x\.yaml$/),
    );
  });

  it("refuses a CONTENT_DIR that is no content folder, creating nothing there", async () => {
    const dir = await contentDir();
    const typo = path.join(dir, "contnet");
    const failed = await reviewNewProcess(["--author", "X"], {
      ...process.env,
      CONTENT_DIR: typo,
      ...noLogs(dir),
    }).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain(
      `review:new: CONTENT_DIR must be the content folder, the one holding business.yaml and reviews/ (unset: content), got ${JSON.stringify(typo)}, which does not exist`,
    );
    await expect(readdir(typo)).rejects.toThrow(/ENOENT/);
  });

  it("a file where the year folder goes is named in words, without a stack trace", async () => {
    const dir = await contentDir();
    await writeFile(path.join(dir, "reviews/2023"), "");
    const failed = await reviewNew(dir, ["--author", "Maria G.", "--date", "2023-05-01"]).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed).toMatchObject({ code: 1 });
    const { stderr } = failed as { stderr: string };
    expect(stderr).toContain(
      `review:new: could not write the new review: ${JSON.stringify(path.join(dir, "reviews/2023"))} is a file, not a folder (EEXIST) — content/reviews/<year>/ must be folders you can write to; nothing was written`,
    );
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it("a write the disk cuts short leaves no part of the file, as its message says", async () => {
    const dir = await contentDir();
    const before = await readdir(path.join(dir, "reviews/2025"));
    // A file size limit fails the write after the file is made, as a full disk does.
    const node = path.join(ROOT, "node_modules/.bin/node");
    const failed = await run(
      "sh",
      ["-c", 'ulimit -f 1 && exec "$0" scripts/review-new.ts --author "Maria G." --date 2025-06-01', node],
      {
        cwd: ROOT,
        env: { ...process.env, CONTENT_DIR: dir, ...noLogs(dir) },
      },
    ).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain("nothing was written");
    expect(await readdir(path.join(dir, "reviews/2025"))).toEqual(before);
  });

  it.each([
    [["--rating", "5"], '--author: expected a non-empty author name, got ""'],
    [["--author", "Maria G.", "--rating", "6"], '--rating: expected an integer from 1 to 5, got "6"'],
    [
      ["--author", "Maria G.", "--date", "2025-02-30"],
      '--date: expected a real calendar date as YYYY-MM-DD, got "2025-02-30"',
    ],
    [
      ["--author", "Maria G.", "--date", "2025-03-12"],
      '--date: must not be in the future (today is 2025-03-11), got "2025-03-12"',
    ],
    [
      ["--author", "Maria G.", "--verified-by", "checked"],
      '--verified-by: expected how you verified the review: appointment_record, invoice, platform or email, got "checked"',
    ],
    // Names every object has: looked up as they were, they wrote `method: function Object() …`.
    ...["constructor", "__proto__", "toString"].map((by): [string[], string] => [
      ["--author", "Maria G.", "--verified-by", by],
      `--verified-by: expected how you verified the review: appointment_record, invoice, platform or email, got "${by}"`,
    ]),
    [["--author", "Maria G.", "--platform", "tiktok"], "--platform: expected one of google, yelp, facebook"],
    // Contact details would be published, and the email would become part of the permanent id.
    [
      ["--author", "maria.gonzalez@mail.example"],
      '--author: expected the name the reviewer signs with (first name and last initial, or initials), not an email address or a link, which would be published, got "maria.gonzalez@mail.example"',
    ],
    [
      ["--author", "Maria\u001b[2J G."],
      '--author: holds a control character (U+001B ESC, which starts terminal escape sequences) — delete it (it may be invisible: retype the words around it), got "Maria\\u001b[2J G."',
    ],
    [
      ["--author", "Maria G.", "--platform", "direct", "--verified-by", "platform"],
      "--verified-by platform: a review sent to the practice (--platform direct) was not verified by a platform",
    ],
  ])("refuses %j, naming the option and value, and writes nothing", async (argv, message) => {
    const dir = await contentDir();
    const { code, err } = await runAt("2025-03-11T09:00:00Z", dir, argv);
    expect(code).toBe(2);
    expect(err).toContain(`review:new: ${message}`);
    expect(await readdir(path.join(dir, "reviews"))).toEqual(["2024", "2025"]);
    expect(await readdir(path.join(dir, "reviews/2025"))).toHaveLength(4);
  });
});
