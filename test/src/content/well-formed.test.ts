import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { isoDateFor } from "../../../src/content/date-forms.ts";
import { ContentError } from "../../../src/content/errors.ts";
import { type RawContent, validateContent } from "../../../src/content/validate.ts";
import { parseContentYaml } from "../../../src/content/yaml.ts";
import { readContentDir } from "../../../src/io/content-dir.ts";

/**
 * Text that would break strict JSON readers, terminals or readers' eyes is refused with the file,
 * line and field; limits hold on every string; dates follow each other; the verification is a
 * statement. Through `validateContent`, the build's and the check's validation, on the fixture's text.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const NOW = new Date("2025-03-13T12:00:00Z");
const DANA = "2024-02-29-dana-k";

let fixture: RawContent;
beforeAll(async () => {
  fixture = await readContentDir(FIXTURE);
});

const fileOf = (id: string) => fixture.reviews.find((r) => path.basename(r.file, ".yaml") === id)?.file as string;
const textOf = (id: string) => fixture.reviews.find((r) => r.file === fileOf(id))?.text as string;

/** The problems of the fixture with Dana's file text changed by `edit`, and the file's new name. */
function problems(edit: (text: string) => string, rename?: string): readonly string[] {
  const reviews = fixture.reviews.map((r) =>
    r.file === fileOf(DANA) ? { file: rename ?? r.file, text: edit(r.text) } : r,
  );
  try {
    validateContent({ ...fixture, reviews }, { now: NOW });
    return [];
  } catch (err) {
    if (!(err instanceof ContentError)) throw err;
    return err.problems;
  }
}

const DANA_FILE = () => fileOf(DANA);
const title = (value: string) => (t: string) => t.replace("title: Leap day, new neck", `title: ${value}`);

describe("characters no field may hold", () => {
  it.each([
    [
      '"a\\e[31mred"',
      "title",
      "control character (U+001B ESC, which starts terminal escape sequences)",
      '"a\\u001b[31mred"',
    ],
    ['"a\\0b"', "title", "control character (U+0000 NUL)", '"a\\u0000b"'],
    ['"a\\x85b"', "title", "control character (U+0085 NEL, next line)", '"a\\u0085b"'],
    ['"abc\\u202Edcba"', "title", "bidirectional-text control (U+202E RIGHT-TO-LEFT OVERRIDE)", '"abc\\u202edcba"'],
    ['"Dana\\u2066K."', "title", "bidirectional-text control (U+2066 LEFT-TO-RIGHT ISOLATE)", '"Dana\\u2066K."'],
    ['"Da\\u200Bna"', "title", "invisible character (U+200B ZERO WIDTH SPACE)", '"Da\\u200bna"'],
    // A name that looks blank, or like another: fonts draw these as nothing.
    ['"\\u3164"', "title", "invisible character (U+3164 HANGUL FILLER)", '"\\u3164"'],
    ['"\\u2800\\u2800"', "title", "invisible character (U+2800 BRAILLE PATTERN BLANK)", '"\\u2800\\u2800"'],
    ['"Te\\u00ADst"', "title", "invisible character (U+00AD SOFT HYPHEN)", '"Te\\u00adst"'],
  ])("a double-quoted escape %s in the title: line, field and the character named", (value, field, what, shown) => {
    const [line] = problems(title(value));
    expect(line).toMatch(new RegExp(`^${DANA_FILE()}: line 5: ${field}: holds an? `));
    expect(line).toContain(what);
    expect(line).toContain(`, got ${shown}`);
  });

  it("a lone surrogate (which jq and other strict JSON readers refuse) in the text", () => {
    const [line] = problems((t) => t.replace(/text: \|\n.*\n/, 'text: "fine \\udfff"\n'));
    expect(line).toBe(
      `${DANA_FILE()}: line 6: text: holds half of a character (a lone surrogate, \\udfff), which strict JSON readers refuse — write the character itself, or remove the \\u escape, got "fine \\udfff"`,
    );
  });

  it("a noncharacter (U+FFFF, U+FDD0, U+10FFFF), which I-JSON forbids in strings, is refused on its line", () => {
    for (const [c, name] of [
      ["\uFFFF", "U+FFFF"],
      ["\uFDD0", "U+FDD0"],
      ["\u{10FFFF}", "U+10FFFF"],
    ] as const) {
      const [line] = problems((t) => t.replace("two adjustments", `two ${c}adjustments`));
      expect(line).toMatch(
        new RegExp(`^${DANA_FILE()}: line 7: text: holds a noncharacter \\(${name.replace("+", "\\+")}\\)`),
      );
    }
    // Written as an escape, it is named at its field.
    expect(problems((t) => t.replace(/text: \|\n.*\n/, 'text: "fine \\uFFFE"\n'))[0]).toContain(
      'line 6: text: holds a noncharacter (U+FFFE), which is not text and which strict JSON readers refuse — delete it (it may be invisible: retype the words around it), got "fine \\ufffe"',
    );
  });

  it("a raw bidi override anywhere, even in the text, is refused on its line", () => {
    const [line] = problems((t) => t.replace("two adjustments", "two \u202Eadjustments"));
    expect(line).toMatch(new RegExp(`^${DANA_FILE()}: line 7: text: holds a bidirectional-text control \\(U\\+202E`));
  });

  it("a literal control, bidi or noncharacter is named at its field, as its escape is: the block's key, a nested field, an item", () => {
    expect(problems((t) => t.replace("two adjustments", "two \u0001adjustments"))).toEqual([
      `${DANA_FILE()}: line 7: text: holds a control character (U+0001) — delete it (it may be invisible: retype the words around it)`,
    ]);
    const reply = (s: string) => (t: string) =>
      `${t}response:\n  date: 2024-03-03\n  text: |\n    Thank you.\n    ${s}\n`;
    expect(problems(reply("Take \u{10FFFF}care."))).toEqual([
      `${DANA_FILE()}: line 18: response.text: holds a noncharacter (U+10FFFF), which is not text and which strict JSON readers refuse — delete it (it may be invisible: retype the words around it)`,
    ]);
    expect(problems((t) => `${t}services:\n  - a\u202Eb\n`)[0]).toMatch(
      new RegExp(`^${DANA_FILE()}: line 15: services\\[0\\]: holds a bidirectional-text control \\(U\\+202E`),
    );
    // A comment belongs to no field: its line is named alone.
    expect(problems((t) => `# note \u202E\n${t}`)[0]).toMatch(
      new RegExp(`^${DANA_FILE()}: line 1: this line holds a bidirectional-text control \\(U\\+202E`),
    );
  });

  // A file saved with CR alone ending each line (old Mac files) is one line with CRs in it, to the check.
  it("a carriage return with no line feed after it is named as the line ending it is; CR LF passes", () => {
    const how =
      "holds a carriage return (U+000D CR) with no line feed after it, the line ending of old Mac files, which ends no line here — save the file with LF (or Windows' CR LF) line endings, or delete the character if it is a stray";
    expect(problems((t) => t.replace(/\n/g, "\r"))).toEqual([`${DANA_FILE()}: line 1: date: ${how}`]);
    expect(problems((t) => t.replace("two adjustments", "two\radjustments"))).toEqual([
      `${DANA_FILE()}: line 7: text: ${how}`,
    ]);
    expect(problems((t) => t.replace(/\n/g, "\r\n"))).toEqual([]);
  });

  it("zero-width characters are refused in author and title, not in the text; an emoji's joiner stays", () => {
    expect(problems((t) => t.replace("author: Dana K.", "author: Dana\u200b K."))[0]).toContain(
      "line 4: author: holds an invisible character (U+200B ZERO WIDTH SPACE), which makes a name differ from one that looks the same",
    );
    expect(problems((t) => t.replace("two adjustments", "two\u200badjustments"))).toEqual([]);
    expect(problems(title("Family visit 👨\u200d👩\u200d👧"))).toEqual([]);
    expect(problems(title("Zero\u200dwidth"))[0]).toContain("ZERO WIDTH JOINER");
  });

  it("a field name holding a control character is refused without printing it raw", () => {
    const found = problems((t) => `${t}aspects: {"ca\\ere": positive}\n`);
    expect(found.some((p) => p.includes("a field name holds a control character (U+001B"))).toBe(true);
    for (const p of found) expect([...p].some((c) => c.charCodeAt(0) < 0x20)).toBe(false);
  });
});

describe("length limits", () => {
  it("a source URL of more than 2,048 characters, reported by its length", () => {
    const url = `https://www.google.example/${"a".repeat(70_000)}`;
    expect(problems((t) => t.replace(/url: .*/, `url: ${url}`))).toEqual([
      `${DANA_FILE()}: line 10: source.url: expected a URL of at most 2048 characters, got ${url.length} characters`,
    ]);
  });

  it("an id list and an editor's labels are bounded", () => {
    const ids = Array.from({ length: 101 }, (_, i) => `x${i}`).join(", ");
    expect(problems((t) => `${t}services: [${ids}]\n`)[0]).toContain("services: expected at most 100 ids");
    const long = "a".repeat(101);
    expect(problems((t) => `${t}technicians: [${long}]\n`)[0]).toContain(
      "technicians[0]: expected an id of at most 100 characters",
    );
  });
});

describe("dates", () => {
  it.each([
    ["11/28/2024", "2024-11-28"],
    ["28.11.2024", "2024-11-28"],
    ["Nov 28 2024", "2024-11-28"],
    ["November 28, 2024", "2024-11-28"],
    ["28 Nov 2024", "2024-11-28"],
    ["2024/11/28", "2024-11-28"],
  ])("%s: the message gives the ISO date to write", (written, iso) => {
    expect(isoDateFor(written)).toEqual({ iso });
    const found = problems((t) => t.replace("  verified_on: 2024-03-01", `  verified_on: ${written}`));
    expect(found).toEqual([
      `${DANA_FILE()}: line 13: verification.verified_on: expected a date as YYYY-MM-DD — write ${iso} instead, got "${written}"`,
    ]);
  });

  it("an ambiguous slash date gives both readings; nonsense gives none", () => {
    expect(isoDateFor("03/04/2024")).toEqual({ iso: "2024-03-04", alt: "2024-04-03" });
    expect(isoDateFor("13/14/2024")).toBeUndefined();
    expect(isoDateFor("Novembre 5 2024")).toBeUndefined();
    expect(isoDateFor("2024-11-28")).toBeUndefined();
  });

  it("refuses published_at before the review's date", () => {
    expect(
      problems((t) => t.replace('published_at: "2024-03-02T10:15:00Z"', 'published_at: "2024-02-28T23:00:00Z"')),
    ).toEqual([
      `${DANA_FILE()}: line 2: published_at: must not be before the review date 2024-02-29: a review is published after it is written, got "2024-02-28T23:00:00Z"`,
    ]);
  });

  it("refuses a withdrawal dated before publication or after today (today from the injected clock)", () => {
    const withdrawn = (date: string) => (t: string) => `${t}withdrawn:\n  reason: author-request\n  date: ${date}\n`;
    expect(problems(withdrawn("1999-01-01"))).toEqual([
      `${DANA_FILE()}: line 16: withdrawn.date: must not be before the review was published (published_at is 2024-03-02T10:15:00Z), got "1999-01-01"`,
    ]);
    expect(problems(withdrawn("2025-03-14"))).toEqual([
      `${DANA_FILE()}: line 16: withdrawn.date: must not be in the future (today is 2025-03-13), got "2025-03-14"`,
    ]);
    expect(problems(withdrawn("2025-03-13"))).toEqual([]);
  });
});

describe("the verification is a statement", () => {
  it("an empty method, as review:new leaves it, is one message on the method's line", () => {
    const found = problems((t) =>
      t.replace("  method: appointment_record", "  method:").replace(/verified_on: .*/, "verified_on:"),
    );
    expect(found).toEqual([
      `${DANA_FILE()}: line 12: the verification is not stated yet — say how this review was verified (appointment record, invoice, the platform it was posted on, or an email confirmation): write under verification: method: (one of appointment_record, invoice, platform_verified, email_confirmation) and verified_on: (the day you checked, YYYY-MM-DD); the label is shown to readers (docs/editors.md)`,
    ]);
  });

  it("platform_verified needs a platform the review was posted on", () => {
    const found = problems((t) =>
      t
        .replace("platform: google", "platform: direct")
        .replace("method: appointment_record", "method: platform_verified"),
    );
    expect(found).toEqual([
      `${DANA_FILE()}: line 12: verification.method: platform_verified says the platform the review was posted on confirmed the reviewer, but source.platform is direct (posted here) — choose the method you used, or set source.platform, got "platform_verified"`,
    ]);
  });
});

describe("names in messages", () => {
  it("a file name holding a newline is quoted, so no message line starts with what follows it", () => {
    const name = path.join(path.dirname(DANA_FILE()), "x\n::error::pwned.yaml");
    const found = problems((t) => t, name);
    expect(found).toEqual([
      `${JSON.stringify(name)}: id: the file name is the review id and must be kebab-case a-z, 0-9 and hyphens, got "x\\n::error::pwned"`,
    ]);
    const error = new ContentError(found);
    for (const line of error.message.split("\n")) expect(line.trimStart().startsWith("::")).toBe(false);
  });
});

it("an unexpected failure on one file names the file and what to do, and the other files are still checked", () => {
  const thrown = (file: string, text: string, problems: string[]) => {
    if (file === fileOf(DANA)) throw new RangeError("Invalid string length\n    at somewhere (/x.ts:1:1)");
    return parseContentYaml(file, text, problems);
  };
  let found: readonly string[] = [];
  try {
    validateContent(fixture, { now: NOW, parse: thrown });
  } catch (err) {
    if (!(err instanceof ContentError)) throw err;
    found = err.problems;
  }
  expect(found).toEqual([
    `${fileOf(DANA)}: the check stopped on this file with an unexpected error (RangeError: Invalid string length) — compare the file with a review file that builds; if it looks right, report this message with the file attached`,
  ]);
});

it("keeps the fixture's own text valid", () => {
  expect(textOf(DANA)).toContain("verification:");
  expect(problems((t) => t)).toEqual([]);
});
