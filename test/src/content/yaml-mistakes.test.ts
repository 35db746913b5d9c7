import fc from "fast-check";
import jsYaml from "js-yaml";
import { describe, expect, it } from "vitest";
import { parseContentYaml } from "../../../src/content/yaml.ts";

const FILE = "content/reviews/2026/2026-03-14-maria-g.yaml";

/** A review file as an editor writes it, with `lines` in place of its title line. */
function review(...lines: string[]): string {
  return [
    "date: 2026-03-14",
    'published_at: "2026-03-14T09:00:00Z"',
    "rating: 5",
    "author: Maria G.",
    ...lines,
    "source:",
    "  platform: google",
    "verification:",
    "  method: invoice",
    "  verified_on: 2026-03-14",
    "",
  ].join("\n");
}

function problems(text: string): string[] {
  const out: string[] = [];
  parseContentYaml(FILE, text, out);
  return out;
}

describe("YAML mistakes in plain words", () => {
  it("an unquoted colon in the title: names the title's line and says to quote it", () => {
    expect(problems(review("title: Verdict: finally fixed", "text: Fine."))).toEqual([
      `${FILE}: line 5: the title contains ": " — put the whole title in quotes: title: "Verdict: finally fixed"`,
    ]);
  });

  it("suggests single quotes when the title itself holds a double quote", () => {
    expect(problems(review('title: The "new" desk: better', "text: Fine."))).toEqual([
      `${FILE}: line 5: the title contains ": " — put the whole title in quotes: title: 'The "new" desk: better'`,
    ]);
  });

  it("an unquoted ' #' that would silently cut the title short", () => {
    // js-yaml reads this without complaint, as the title "Clinic" and a comment.
    expect(jsYaml.load("title: Clinic #1 in town", { schema: jsYaml.CORE_SCHEMA })).toEqual({ title: "Clinic" });
    expect(problems(review("title: Clinic #1 in town", "text: Fine."))).toEqual([
      `${FILE}: line 5: everything in the title from " #" on is ignored (YAML reads it as a comment) — put the whole title in quotes: title: "Clinic #1 in town"`,
    ]);
  });

  it("leaves a deliberate comment after a number alone", () => {
    expect(problems(review("title: Fine", "text: Fine.").replace("rating: 5", "rating: 5 # was 4"))).toEqual([]);
  });

  it("a line of a | text block that lost its indentation: names that line, not the parser's", () => {
    const text = review(
      "text: |",
      "  The first line is fine.",
      "the second lost its indentation.",
      "  The third is fine.",
    );
    expect(problems(text)).toEqual([
      `${FILE}: line 7: this line belongs to the text above but is not indented — indent every line of the text by two spaces`,
    ]);
  });

  it("a lost-indentation line that YAML would read as a new field is refused too", () => {
    // Valid YAML: "Parking" becomes a field and the text ends early.
    const text = review("text: |", "  The first line is fine.", "Parking: easy", "  More text.");
    expect(problems(text)).toEqual([
      `${FILE}: line 7: this line belongs to the text above but is not indented — indent every line of the text by two spaces`,
    ]);
  });

  it("a tab used for indentation", () => {
    expect(problems(review("title: Fine", "text: Fine.").replace("  platform", "\tplatform"))).toEqual([
      `${FILE}: line 8: this line is indented with a tab — YAML needs spaces: replace the tab with two spaces`,
    ]);
  });

  it("a tab before a list item names that line alone, not the next item's fields as repeats", () => {
    const aspects = ["aspects:", "  - id: care", "    label: Care", "\t- id: staff", "    label: Staff", ""].join("\n");
    expect(problems(aspects)).toEqual([
      `${FILE}: line 4: this line is indented with a tab — YAML needs spaces: replace the tab with two spaces`,
    ]);
  });

  it("a missing space after the colon, at the top level and nested", () => {
    expect(problems(review("title: Fine", "text: Fine.").replace("rating: 5", "rating:5"))).toEqual([
      `${FILE}: line 3: put a space after the colon: rating: 5`,
    ]);
    expect(problems(review("title: Fine", "text: Fine.").replace("platform: google", "platform:google"))).toEqual([
      `${FILE}: line 8: put a space after the colon: platform: google`,
    ]);
  });

  it("a field written twice names both lines", () => {
    expect(problems(review("title: Fine", "rating: 4", "text: Fine."))).toEqual([
      `${FILE}: line 6: rating appears twice (also on line 3) — keep the one you mean and delete the other`,
    ]);
  });

  it("the same nested field under two parents is no duplicate", () => {
    const text = review("title: Fine", "text: Fine.", "response:", "  date: 2026-03-15", "  text: Thanks!");
    expect(problems(text)).toEqual([]);
  });

  it("curly quotes from a word processor: straight quotes for text, none for a number or a date", () => {
    expect(problems(review("title: “Verdict: finally fixed”", "text: Fine."))).toEqual([
      `${FILE}: line 5: the title is in curly quotes (“ ”), which YAML does not understand — use straight quotes: title: "Verdict: finally fixed"`,
    ]);
    expect(problems(review("title: Fine", "text: Fine.").replace("rating: 5", "rating: “5”"))).toEqual([
      `${FILE}: line 3: the rating is in curly quotes (“ ”), which YAML does not understand — remove them: rating: 5`,
    ]);
    expect(problems(review("title: Fine", "text: Fine.").replace("date: 2026-03-14", "date: ‘2026-03-14’"))).toEqual([
      `${FILE}: line 1: the date is in curly quotes (“ ”), which YAML does not understand — remove them: date: 2026-03-14`,
    ]);
  });

  it("a quote or a list left open names the line it opens on", () => {
    expect(problems(review('title: "Fine', "text: Fine."))).toEqual([
      `${FILE}: line 5: the quote that opens the title is never closed — end the title with " on the same line`,
    ]);
    expect(problems(review("title: Fine", "text: Fine.", "technicians: [anika-patel"))).toEqual([
      `${FILE}: line 7: the technicians opens with [ but it is never closed — end it with ] on the same line`,
    ]);
  });

  it("an unclosed quote is named on the line it opens, even when a later line holds a quote", () => {
    // js-yaml reads on to the apostrophe in "it's" and stops two lines below.
    expect(problems(review("title: 'Best chiro", "text: |", "  it's fine", "  really"))).toEqual([
      `${FILE}: line 5: the quote that opens the title is never closed — end the title with ' on the same line`,
    ]);
  });

  it("indentation made of non-breaking spaces is named as such", () => {
    const text = review("title: Fine", "text: Fine.").replace("  platform", "\u00a0\u00a0platform");
    expect(problems(text)).toEqual([
      `${FILE}: line 8: this line is indented with non-breaking spaces (pasted from a word processor), which YAML does not count as indentation — delete the spaces at the start of the line and type them again`,
    ]);
  });

  it("a merge key or a line starting with an unusual space, right after a plain value, is named as what it is", () => {
    const belowRating = (line: string) =>
      review("title: Fine", "text: Fine.").replace("rating: 5\n", `rating: 5\n${line}\n`);
    const merge =
      "<<: a merge key (<<), which copies fields from elsewhere, is not allowed in a content file — write each field out on its own line";
    expect(problems(belowRating("<<: {title: merged}"))).toEqual([`${FILE}: line 4: ${merge}`]);
    expect(problems(review("title: Fine", "text: Fine.", "services:", "  - <<: {id: x}")).at(0)).toBe(
      `${FILE}: line 8: ${merge}`,
    );
    expect(problems(belowRating("\u2003author2: x"))).toEqual([
      `${FILE}: line 4: author2: this line starts with an unusual space character (U+2003 EM SPACE, pasted from a word processor?), which YAML does not count as a space — delete the spaces at the start of the line and type them again`,
    ]);
    expect(problems(belowRating("  \u3000note: x"))[0]).toContain(
      "line 4: note: this line starts with an unusual space character (U+3000 IDEOGRAPHIC SPACE,",
    );
    // Inside a text block such a space is the text's own.
    expect(problems(review("title: Fine", "text: |", "  Fine.", "  \u2003indented quote"))).toEqual([]);
  });

  it.each([
    ["*Best* chiro", "which YAML reads as a reference to another value (an alias)", '"*Best* chiro"'],
    [
      "&best chiro",
      "which YAML reads as a name for the value (an anchor), dropping the word after it",
      '"&best chiro"',
    ],
    ["!great", "which YAML reads as a type tag", '"!great"'],
    ["%50 better", "which YAML reserves: a value cannot start with it", '"%50 better"'],
    ["@home visits", "which YAML reserves: a value cannot start with it", '"@home visits"'],
    ["`best` care", "which YAML reserves: a value cannot start with it", '"`best` care"'],
  ])("a title starting with a YAML indicator (%s) says to quote it", (title, reading, fix) => {
    expect(problems(review(`title: ${title}`, "text: Fine."))).toEqual([
      `${FILE}: line 5: the title starts with ${title[0]}, ${reading} — put the whole title in quotes: title: ${fix}`,
    ]);
  });

  it("a quoted start followed by more text says to quote the whole value", () => {
    expect(problems(review("title: 'Best chiro' says my wife", "text: Fine."))).toEqual([
      `${FILE}: line 5: the title starts with a quoted part and goes on after the closing quote — put the whole title in quotes: title: "'Best chiro' says my wife"`,
    ]);
    expect(problems(review('title: "Best chiro" says my wife', "text: Fine."))).toEqual([
      `${FILE}: line 5: the title starts with a quoted part and goes on after the closing quote — put the whole title in quotes: title: '"Best chiro" says my wife'`,
    ]);
    // A comment after a quoted value is fine.
    expect(problems(review("title: 'Best chiro' # from the card", "text: Fine."))).toEqual([]);
  });

  it("a control character in the file names its line before YAML reads it", () => {
    expect(problems(review("title: a\u0007b", "text: Fine."))).toEqual([
      `${FILE}: line 5: title: holds a control character (U+0007 BEL, the terminal bell) — delete it (it may be invisible: retype the words around it)`,
    ]);
    // Windows line ends are line ends.
    expect(problems(review("title: Fine", "text: Fine.").replaceAll("\n", "\r\n"))).toEqual([]);
  });

  it("a colon on a later line of a text written without |", () => {
    expect(problems(review("text:", "  Came in with neck pain.", "  Verdict: fixed."))).toEqual([
      `${FILE}: line 7: this line of the text contains ": " — write the text as a text block: put "|" after "text:" and indent every line of the text by two spaces`,
    ]);
  });

  it("finds nothing in any review YAML itself writes, whatever its text", () => {
    // A value wholly in curly quotes is the one thing refused on purpose (see above).
    const text = fc
      .string({
        unit: fc.constantFrom(
          ...["a", " ", ":", "#", "-", "'", '"', "“", "”", "\t", "\n", "[", "|"],
          ...["*", "&", "!", "%", "@", "`", "\u00a0", "/", "."],
        ),
      })
      .filter((s) => !/^\s*“.*”\s*$/s.test(s));
    fc.assert(
      fc.property(text, text, fc.integer({ min: 1, max: 5 }), (title, body, rating) => {
        const doc = {
          date: "2026-03-14",
          rating,
          title,
          text: body,
          source: { platform: "google" },
          services: [title],
        };
        const out: string[] = [];
        expect(parseContentYaml(FILE, jsYaml.dump(doc), out)).toEqual(doc);
        expect(out).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});
