import { describe, expect, it } from "vitest";
import { codeSpans } from "../../../src/site/code-spans.ts";

/** The pieces as `text` and `[code]`, joined, for short expectations. */
const shown = (source: string) =>
  codeSpans(source)
    .map((p) => (p.code ? `[${p.text}]` : p.text))
    .join("");

describe("codeSpans", () => {
  it("reads the code spans of the CommonMark spec's examples", () => {
    expect(shown("`foo`")).toBe("[foo]");
    expect(shown("`` foo ` bar ``")).toBe("[foo ` bar]");
    expect(shown("` `` `")).toBe("[``]");
    expect(shown("`  ``  `")).toBe("[ `` ]");
    expect(shown("` a`")).toBe("[ a]");
    expect(shown("`  `")).toBe("[  ]");
    expect(shown("``\nfoo\nbar  \nbaz\n``")).toBe("[foo bar   baz]");
    expect(shown("`foo   bar \nbaz`")).toBe("[foo   bar  baz]");
    expect(shown("`foo\\`bar`")).toBe("[foo\\]bar`");
  });

  it("leaves backticks no run of the same length closes as text", () => {
    expect(shown("```foo``")).toBe("```foo``");
    expect(shown("`foo")).toBe("`foo");
    expect(shown("`foo``bar``")).toBe("`foo[bar]");
  });

  it("keeps the text around the spans as written, markup characters included", () => {
    expect(shown("ETags (a list, or `*`); <hex> & more")).toBe("ETags (a list, or [*]); <hex> & more");
    expect(codeSpans("no spans")).toEqual([{ text: "no spans", code: false }]);
    expect(codeSpans("")).toEqual([]);
  });
});
