import { execFile } from "node:child_process";
import { cp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { checkIn, checkoutOf, edit } from "../helpers/check-content-run.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

/**
 * `npm run check` as an editor and a pull-request check run it: the script as a child process on a
 * copy of a fixture, its output read line by line. No content may make it print a stack trace or
 * a line that starts with something the content chose.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURE = path.join(ROOT, "test/fixtures/insights-content");
const NECK = "reviews/2024/2024-04-10-neck-pain.yaml";
const run = promisify(execFile);

const temp = tempFolders();
const copy = () => checkoutOf(temp, FIXTURE);
const check = checkIn;

const git = (root: string, ...args: string[]) =>
  run("git", ["-c", "user.email=editor@example.org", "-c", "user.name=Editor", ...args], { cwd: root });

describe("npm run check", () => {
  it("a newline in a file name never starts an output line; the name is printed quoted", async () => {
    const root = await copy();
    await cp(path.join(root, "content", NECK), path.join(root, "content/reviews/2024/x\n::error::pwned.yaml"));
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    const lines = stderr.split("\n");
    expect(lines.some((l) => l.startsWith("::"))).toBe(false);
    expect(stderr).toContain('"content/reviews/2024/x\\n::error::pwned.yaml": id: the file name is the review id');
  });

  it("a 70,000-character URL and control characters give plain lines, no stack trace", async () => {
    const root = await copy();
    await edit(path.join(root, "content", NECK), (t) =>
      t
        .replace("  platform: direct", `  platform: direct\n  url: https://example.org/${"a".repeat(70_000)}`)
        .replace("author: Gus L.", 'author: "Gus\\e]0;owned\\aL."'),
    );
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).not.toMatch(/\n\s+at |RangeError|Error:/);
    expect(stderr).toContain(
      `content/${NECK}: line 9: source.url: expected a URL of at most 2048 characters, got 70020 characters`,
    );
    expect(stderr).toContain(`content/${NECK}: line 4: author: holds a control character (U+001B ESC`);
    expect([...stderr].some((c) => c.charCodeAt(0) < 0x20 && c !== "\n")).toBe(false);
  });

  it("an over-long name is counted in characters, as the limit is: an emoji counts one", async () => {
    const root = await copy();
    await edit(path.join(root, "content", NECK), (t) => t.replace("author: Gus L.", `author: ${"😀".repeat(101)}`));
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `content/${NECK}: line 4: author: expected author name of at most 100 characters, got 101 characters`,
    );
  });

  it("an author that is an email address or a link is refused: it would be published as the name", async () => {
    const root = await copy();
    await edit(path.join(root, "content", NECK), (t) => t.replace("author: Gus L.", "author: gus.l@mail.example"));
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `content/${NECK}: line 4: author: expected the name the reviewer signs with (first name and last initial, or initials), not an email address or a link, which would be published, got "gus.l@mail.example"`,
    );
    await edit(path.join(root, "content", NECK), (t) => t.replace("gus.l@mail.example", "https://spam.example/x"));
    expect((await check(root)).stderr).toContain(
      'not an email address or a link, which would be published, got "https://spam.example/x"',
    );
  });

  it("a name or alias two practitioners share is named at its line: each review saying it would be credited to both", async () => {
    const root = await copy();
    await edit(path.join(root, "content/business.yaml"), (t) =>
      t.replace(
        "    aliases: [Tom]",
        "    aliases: [Tom]\n  - id: tom-kane\n    name: Tom Kane\n    title: Massage therapist\n    aliases: [tom]",
      ),
    );
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      'content/business.yaml: line 31: technicians[2].aliases[0]: also names technicians[1] (tom-lindqvist), and a review that says it would be credited to both — keep it on one entry, got "tom"',
    );
  });

  it("a review file name that is kebab-case but too long is told its length", async () => {
    const root = await copy();
    const id = `2024-04-10-${"a".repeat(95)}`;
    await cp(path.join(root, "content", NECK), path.join(root, `content/reviews/2024/${id}.yaml`));
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `content/reviews/2024/${id}.yaml: id: the file name is the review id and must be at most 100 characters before .yaml — shorten it, got 106 characters`,
    );
  });

  it.each([
    ["the id of a review in another year folder", "reviews/2025/2024-04-10-neck-pain.yaml"],
    ["no id (not kebab-case)", "reviews/2025/2025-04-10-Neck-Pain.yaml"],
  ])("a file whose name is %s has its other problems named in the same run", async (_, name) => {
    const root = await copy();
    const file = path.join(root, "content", name);
    await cp(path.join(root, "content", NECK), file);
    await edit(file, (t) => t.replace(/^rating: \d/m, "rating: 6"));
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(`content/${name}: id: `);
    expect(stderr).toContain(`content/${name}: line 3: rating: expected a whole number from 1 to 5, got 6`);
    expect(stderr).toContain(`content/${name}: line 1: date: must fall in 2025, the year folder the file is in`);
  });

  it("a problem elsewhere in business.yaml does not hide a review's unknown catalogue id", async () => {
    const root = await copy();
    await edit(path.join(root, "content/business.yaml"), (t) => t.replace(/^telephone: .*/m, 'telephone: ""'));
    await edit(path.join(root, "content", NECK), (t) => `${t}technicians: [dr-nobody]\n`);
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain("content/business.yaml: line 5: the telephone is empty");
    expect(stderr).toContain(`content/${NECK}: line 12: technicians[0]: unknown id; expected one of`);
    expect(stderr).toContain('(see business.yaml), got "dr-nobody"');
  });

  it("a problem in faq.yaml does not hide a review's aspects label with an unknown aspect id", async () => {
    const root = await copy();
    await edit(path.join(root, "content/insights/faq.yaml"), (t) => `bogus: 1\n${t}`);
    await edit(path.join(root, "content", NECK), (t) => `${t}aspects: {parkng: negative}\n`);
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain("content/insights/faq.yaml: line 1: bogus is not a known field");
    expect(stderr).toContain(`content/${NECK}: line 12: aspects.parkng: unknown aspect id; valid ids are`);
  });

  it("--explain of a review file name that is misspelt says there is no such file", async () => {
    const root = await copy();
    const typo = "content/reviews/2024/2024-04-10-neck-pian.yaml";
    const { code, stderr } = await check(root, ["--explain", typo]);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `Invalid content: ${typo}: (file): does not exist — give the path of a review file, content/reviews/<year>/<id>.yaml, got "${typo}"\n`,
    );
  });

  it("business.yaml's coordinates and lists are refused in plain words, not in the schema library's", async () => {
    const root = await copy();
    await edit(path.join(root, "content/business.yaml"), (t) =>
      t.replace(/latitude: .*/, "latitude: 145.5").replace(/service_areas:\n[\s\S]*$/, "service_areas: []\n"),
    );
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /content\/business\.yaml: line \d+: geo\.latitude: expected the latitude as a number of degrees from -90 to 90, got 145\.5/,
    );
    expect(stderr).toMatch(/content\/business\.yaml: line \d+: service_areas: expected at least one entry, got \[\]/);
    expect(stderr).not.toMatch(/Too big|Too small|Invalid input/);
  });

  it("a review listed twice as an FAQ answer's evidence is named at its line", async () => {
    const root = await copy();
    await edit(path.join(root, "content/insights/faq.yaml"), (t) =>
      t.replace("2024-08-01-billed-twice]", "2024-08-01-billed-twice, 2025-06-10-mixed-care]"),
    );
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      'content/insights/faq.yaml: line 4: faq[0].evidence[2]: already listed as evidence[0], got "2025-06-10-mixed-care"',
    );
  });

  it("a backdated review fails with its file, line and field", async () => {
    const root = await copy();
    await edit(path.join(root, "content", NECK), (t) =>
      t
        .replace('published_at: "2024-04-10T12:00:00Z"', 'published_at: "2024-04-01T12:00:00Z"')
        .concat("withdrawn:\n  reason: author-request\n  date: 1999-01-01\n"),
    );
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `content/${NECK}: line 2: published_at: must not be before the review date 2024-04-10: a review is published after it is written, got "2024-04-01T12:00:00Z"`,
    );
    expect(stderr).toContain(
      `content/${NECK}: line 14: withdrawn.date: must not be before the review was published (published_at is 2024-04-01T12:00:00Z), got "1999-01-01"`,
    );
  });

  it("reports an aspect id that the evidence pages reserve", async () => {
    const root = await copy();
    await edit(path.join(root, "content/insights/aspects.yaml"), (t) => t.replace("  - id: staff", "  - id: topics"));
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      'content/insights/aspects.yaml: line 12: aspects[2].id: is the address of other evidence pages (/insights/topics/), so no aspect may take it (reserved: practitioners, services, service-areas, topics, ratings, page); choose another id, got "topics"',
    );
  });

  it("a bidi override written as an escape in an insights file is refused too", async () => {
    const root = await copy();
    await edit(path.join(root, "content/insights/faq.yaml"), (t) =>
      t.replace("    answer: Not according to reviewers.", '    answer: "Not according \\u202Eto reviewers."'),
    );
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      "content/insights/faq.yaml: line 6: faq[1].answer: holds a bidirectional-text control (U+202E RIGHT-TO-LEFT OVERRIDE)",
    );
    expect(stderr).toContain('got "Not according \\u202eto reviewers."');
  });

  it("--staged checks what is staged: an unstaged scaffold does not block, a staged one does", async () => {
    const root = await copy();
    await git(root, "init", "-q");
    await git(root, "add", "-A");
    await git(root, "commit", "-qm", "content");
    const scaffold = path.join(root, "content/reviews/2025/2025-02-21-new.yaml");
    await writeFile(scaffold, 'date: 2025-02-21\npublished_at: "2025-02-21T09:00:00Z"\nrating:\ntext: ""\n');
    // An unstaged edit to a committed file is not checked either: the staged version is.
    await edit(path.join(root, "content", NECK), (t) => t.replace(/^rating: \d/m, "rating: 9"));

    expect(await check(root)).toMatchObject({ code: 1 });
    const staged = await check(root, ["--staged"]);
    expect(staged).toMatchObject({ code: 0 });
    expect(staged.stdout).toContain("content (as staged): 8 reviews, business and insights are valid");

    await git(root, "add", scaffold);
    const blocked = await check(root, ["--staged"]);
    expect(blocked.code).toBe(1);
    // Named where the editor keeps it, not in the temporary copy.
    expect(blocked.stderr).toContain(
      "  content/reviews/2025/2025-02-21-new.yaml: line 4: the text is not filled in yet",
    );
    expect(blocked.stderr).not.toContain("rating: 9");
    expect(blocked.stderr).not.toContain(os.tmpdir());
  });

  it("a CONTENT_DIR that is missing or a file is named as the variable to fix (exit 2)", async () => {
    const root = await copy();
    for (const [dir, why, args] of [
      ["contnet", "does not exist", []],
      ["content/business.yaml", "is a file, not a folder", []],
      ["contnet", "does not exist", ["--staged"]],
      ["contnet", "does not exist", ["--explain", `contnet/${NECK}`]],
    ] as const) {
      const { code, stderr } = await check(root, [...args], { CONTENT_DIR: dir });
      expect(code).toBe(2);
      expect(stderr).toContain(
        `CONTENT_DIR must be the content folder, the one holding business.yaml and reviews/ (unset: content), got ${JSON.stringify(path.join(root, dir))}, which ${why}`,
      );
      expect(stderr).not.toMatch(/unexpected error|ENOENT|ENOTDIR/);
    }
  });

  it("--staged outside a repository says so (exit 2)", async () => {
    const root = await copy();
    const { code, stderr } = await check(root, ["--staged"]);
    expect(code).toBe(2);
    expect(stderr).toContain("is not inside a git repository");
  });
});
