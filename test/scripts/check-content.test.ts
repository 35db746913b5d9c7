import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

/**
 * `npm run check` as an editor and a pull-request check run it: the script as a child process on a
 * copy of a fixture, its output read line by line. No content may make it print a stack trace or
 * a line that starts with something the content chose.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURE = path.join(ROOT, "test/fixtures/insights-content");
const NECK = "reviews/2024/2024-04-10-neck-pain.yaml";
const run = promisify(execFile);

const temp: string[] = [];
afterAll(() => Promise.all(temp.map((d) => rm(d, { recursive: true, force: true }))));

async function copy(): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), "pr-check-cli-"));
  temp.push(root);
  await cp(FIXTURE, path.join(root, "content"), { recursive: true });
  return root;
}

async function edit(file: string, change: (text: string) => string): Promise<void> {
  await writeFile(file, change(await readFile(file, "utf8")));
}

/** `npm run check [args]` in `root`, content in `root/content`; never throws, returns what it printed. */
async function check(root: string, args: string[] = [], vars: Record<string, string> = {}) {
  const env = { ...process.env, CONTENT_DIR: "content", BASE_URL: "", LOG_DIR: path.join(root, "log"), ...vars };
  try {
    const { stdout, stderr } = await run(
      path.join(ROOT, "node_modules/.bin/node"),
      [path.join(ROOT, "scripts/check-content.ts"), ...args],
      { cwd: root, env },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

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

  it("a second YAML document in a review file is named at the line that starts it", async () => {
    const root = await copy();
    // Two reviews pasted into one file, and a stray "---" left at the end of another.
    await edit(path.join(root, "content", NECK), (t) => `---\n${t}---\ndate: 2024-04-11\nrating: 3\n`);
    await edit(path.join(root, "content/reviews/2025/2025-03-15-waiting-room.yaml"), (t) => `${t}---\n`);
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    const advice =
      'a line "---" or "..." ends the file\'s YAML document and starts another — a content file holds one document: delete this line, and put what follows it in a file of its own if it is another review';
    expect(stderr).toContain(`content/${NECK}: line 13: ${advice}`);
    expect(stderr).toContain(`content/reviews/2025/2025-03-15-waiting-room.yaml: line 12: ${advice}`);
    expect(stderr).not.toContain("appears twice");
  });

  it("a field name in quotes or spaced from its colon is read as YAML reads it, and named on its line", async () => {
    const root = await copy();
    // As a JSON-to-YAML converter writes a file: valid YAML, the same review.
    await edit(path.join(root, "content", NECK), (t) =>
      t.replace("rating: 4", '"rating": 4').replace("author: Gus L.", "'author' : Gus L."),
    );
    expect(await check(root)).toMatchObject({ code: 0 });
    await edit(path.join(root, "content", NECK), (t) => t.replace('"rating": 4', '"rating": 9'));
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toEqual([
      `Invalid content: content/${NECK}: line 3: rating: expected a whole number from 1 to 5, got 9`,
    ]);
  });

  it("a review written as one flow mapping or as JSON is read as YAML reads it; a ' #' cutting a value short is named", async () => {
    const root = await copy();
    const file = path.join(root, "content", NECK);
    const json = {
      date: "2024-04-10",
      published_at: "2024-04-10T12:00:00Z",
      rating: 4,
      author: "Gus L.",
      text: "Came in with neck pain. The front desk was never rude. Tom lent me a foam roller.",
      source: { platform: "direct" },
      verification: { method: "invoice", verified_on: "2024-04-10" },
    };
    await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
    expect(await check(root)).toMatchObject({ code: 0 });
    // Compact JSON: a value's quote follows its key's colon with no space, and " #" inside it is text.
    await writeFile(file, `${JSON.stringify({ ...json, title: "Clinic #1 in town" })}\n`);
    expect(await check(root)).toMatchObject({ code: 0 });
    await writeFile(file, `${JSON.stringify({ ...json, source: { platform: "fax" } })}\n`);
    expect((await check(root)).stderr).toContain(`content/${NECK}: line 1: source.platform: expected one of google`);

    await writeFile(file, `${JSON.stringify({ ...json, rating: 9 }, null, 2)}\n`);
    const bad = await check(root);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`content/${NECK}: line 4: rating: expected a whole number from 1 to 5, got 9`);
    expect(bad.stderr).not.toContain("is not a field");

    // YAML reads the title as "Clinic" and the rest of its line as a comment.
    await writeFile(
      file,
      `${JSON.stringify(json, null, 2).replace('"rating": 4,', '"rating": 4, title: Clinic #1 in town,')}\n`,
    );
    const cut = await check(root);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toContain(
      `content/${NECK}: line 4: title: everything on this line from " #" on is ignored (YAML reads it as a comment), which cuts the value short at "Clinic" — put the whole value in quotes`,
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

  it("a review file that is a list gets the one message that says so", async () => {
    const root = await copy();
    await writeFile(path.join(root, "content", NECK), "- date: 2024-04-10\n- rating: 4\n");
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toEqual([
      `Invalid content: content/${NECK}: line 1: (file): expected a YAML mapping of review fields, got [{date: "2024-04-10"}, {rating: 4}]`,
    ]);
  });

  it("a number or yes/no where text goes is named as written, with the quotes to add", async () => {
    const root = await copy();
    await edit(path.join(root, "content", NECK), (t) => t.replace("author: Gus L.", "author: 0x1F"));
    await edit(path.join(root, "content/business.yaml"), (t) => t.replace(/postal_code: .*/, "postal_code: 02134"));
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `content/${NECK}: line 4: author: YAML reads 0x1F as a number (31), not as text — put it in quotes: author: "0x1F"`,
    );
    expect(stderr).toMatch(
      /content\/business\.yaml: line \d+: address\.postal_code: YAML reads 02134 as a number \(2134\), not as text — put it in quotes: postal_code: "02134"/,
    );
  });

  it("a value opening with a no-break space before * is read as the text it is", async () => {
    const root = await copy();
    // YAML strips only spaces and tabs, so the value is "\u00a0*Best* chiro" (the schema trims the
    // no-break space); review:new writes a title pasted this way just so.
    await edit(path.join(root, "content", NECK), (t) =>
      t
        .replace("author: Gus L.", "author: Gus L.\ntitle: \u00a0*Best* chiro")
        .replace("rating: 4", "rating: 4 # stars"),
    );
    expect(await check(root)).toMatchObject({ code: 0, stderr: "" });
  });

  it("a value ending in a colon and an em space is not taken for an unquoted ': '", async () => {
    const root = await copy();
    // YAML needs a space or tab after the colon: this is the text "Verdict:" and an em space.
    await edit(path.join(root, "content", NECK), (t) =>
      t.replace("author: Gus L.", "author: Gus L.\ntitle: Verdict:\u2003").replace("rating: 4", "rating: 4 # stars"),
    );
    expect(await check(root)).toMatchObject({ code: 0, stderr: "" });
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

  it("a YAML tag the content files cannot use (!!binary, !!timestamp) is named at its field", async () => {
    const root = await copy();
    await edit(path.join(root, "content", NECK), (t) =>
      t
        .replace("author: Gus L.", "author: !!binary R3VzIEwu")
        .replace("date: 2024-04-10", "date: !!timestamp 2024-04-10"),
    );
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `content/${NECK}: line 1: the date starts with !, which YAML reads as a type tag — put the whole date in quotes: date: "!!timestamp 2024-04-10"`,
    );
    expect(stderr).toContain(`content/${NECK}: line 4: the author starts with !, which YAML reads as a type tag`);
    expect(stderr).not.toContain("unknown tag");
  });

  it("a rating in quotes is told that the quotes make it text", async () => {
    const root = await copy();
    await edit(path.join(root, "content", NECK), (t) => t.replace("rating: 4", 'rating: "4"'));
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `content/${NECK}: line 3: rating: expected a whole number from 1 to 5, got "4", which the quotes make text — remove them: rating: 4`,
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

  it("a ' #' inside a reply written inline over two lines is named: YAML would cut the reply short silently", async () => {
    const root = await copy();
    // Valid YAML: the reply's text reads "We are", the rest of its line a comment.
    await edit(
      path.join(root, "content", NECK),
      (t) => `${t}response: {date: 2024-04-11, text: We are #1 in town,\n  }\n`,
    );
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `content/${NECK}: line 12: text: everything on this line from " #" on is ignored (YAML reads it as a comment), which cuts the value short at "We are" — put the whole value in quotes`,
    );
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

  it("an author named Null is told that YAML reads it as nothing, not that the author is empty", async () => {
    const root = await copy();
    await edit(path.join(root, "content", NECK), (t) => t.replace("author: Gus L.", "author: Null"));
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `content/${NECK}: line 4: author: YAML reads Null as nothing, not as text — put it in quotes: author: "Null"`,
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
