/**
 * A content file written as one flow mapping (`{date: 2026-03-14, rating: 5, …}`, or JSON, which
 * is YAML too) has none of the line shapes the mistake scan of yaml-mistakes.ts knows, so that scan
 * would call each of its lines "not a field". Such a file needs one check only: a ` #` after text,
 * outside quotes, makes YAML read the rest of the line as a comment and cut the text short.
 */

import { quoteValue } from "./characters.ts";
import type { YamlMistake } from "./yaml-mistakes.ts";

/** A document whose first line of content (after comments, `---` and directives) opens `{` or `[`. */
const FLOW_DOCUMENT = /^\uFEFF?(?:[ \t]*(?:#.*)?\r?\n|---[ \t]*\r?\n|%.*\r?\n)*[ \t]*[{[]/;

export const isFlowDocument = (text: string): boolean => FLOW_DOCUMENT.test(text);

/** Values a comment may follow on purpose: numbers, true/false, null, dates. */
const NOT_TEXT = /^(?:[-+]?\d[\d_.]*|true|false|null|~|\d{4}-\d\d-\d\d(?:[Tt ][\d:.]+(?:[Zz]|[-+]\d\d:?\d\d)?)?)$/i;

/** Each line of a flow document where a ` #` cuts an unquoted text value short, named with its field. */
export function flowCommentMistakes(text: string): YamlMistake[] {
  const found: YamlMistake[] = [];
  let line = 1;
  let quote: { char: string; from: number } | undefined;
  /** The unquoted value being read since the last `,`, `[`, `{` or `: `; a quote may open only before it starts. */
  let plain = "";
  /** The last value read whole (quoted or plain), and the field name it was when a `: ` followed it. */
  let last = "";
  let key = "";
  /** Whether a quoted value just closed, spaces aside. */
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "\n") line++;
    if (quote) {
      if (quote.char === '"' && c === "\\") i++;
      else if (c === quote.char && quote.char === "'" && text[i + 1] === "'") i++;
      else if (c === quote.char) {
        last = text.slice(quote.from, i);
        quote = undefined;
        quoted = true;
      }
      continue;
    }
    // After a quoted key, the colon needs no space (`"text":'…'`, as JSON writes it).
    const afterQuoted = quoted;
    if (c !== " " && c !== "\t") quoted = false;
    if (c === "#" && (i === 0 || /[ \t\n]/.test(text[i - 1] as string))) {
      const cut = plain.trim();
      if (cut !== "" && !NOT_TEXT.test(cut)) {
        found.push({
          line,
          message: `${key ? `${key}: ` : ""}everything on this line from " #" on is ignored (YAML reads it as a comment), which cuts the value short at ${quoteValue(cut)} — put the whole value in quotes`,
        });
      }
      const end = text.indexOf("\n", i);
      i = (end < 0 ? text.length : end) - 1;
      continue;
    }
    if ((c === '"' || c === "'") && plain.trim() === "") quote = { char: c, from: i + 1 };
    else if (c === ":" && (afterQuoted || /[\s,[\]{}]/.test(text[i + 1] ?? " "))) {
      key = plain.trim() || last;
      plain = "";
    } else if (",[]{}".includes(c)) {
      if (plain.trim() !== "") last = plain.trim();
      plain = "";
    } else plain += c;
  }
  return found;
}

/**
 * The same mistake in a list or mapping written inline in a block file (`response: {…}`), starting
 * with `value` on `lines[at]` and going on over the lines indented more than `indent`: YAML reads it
 * silently when the comment ends just before a line that goes on with `,` or a closing bracket.
 */
export function inlineFlowComments(lines: readonly string[], at: number, indent: number, value: string): YamlMistake[] {
  let end = at + 1;
  const goesOn = (l: string) => l.trim() === "" || l.length - l.trimStart().length > indent;
  while (end < lines.length && goesOn(lines[end] as string)) end++;
  const flow = [value, ...lines.slice(at + 1, end)].join("\n");
  return flowCommentMistakes(flow).map((m) => ({ ...m, line: m.line + at }));
}
