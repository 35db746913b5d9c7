/**
 * The line a field is written on, so a message about its value can say "line 5" and an editor can
 * go straight there. Read from the text rather than from the parser: js-yaml gives values, not
 * positions, and a content file is simple enough (fields, nested fields, lists) to find a path in.
 */

import { isFlowDocument } from "./yaml-flow-mistakes.ts";

/** The 1-based line of `path` in `text`; the nearest written parent's line when the field itself is missing. */
export function fieldLine(text: string, path: readonly PropertyKey[]): number | undefined {
  const lines = text.split(/\r?\n/);
  let from = 0;
  let to = lines.length;
  let parentIndent = -1;
  let found: number | undefined;
  for (const key of path) {
    const at =
      typeof key === "number" ? itemLine(lines, from, to, parentIndent, key) : keyLine(lines, from, to, String(key));
    if (at === undefined) break;
    found = at;
    const line = lines[at] as string;
    // An inline list or mapping (`services: [a, b]`) has no lines of its own below.
    if (/:\s*[[{]/.test(line) && typeof key !== "number") break;
    parentIndent = indentOf(line);
    // A list item's first field is on the item's own line (`- id: x`).
    from = typeof key === "number" ? at : at + 1;
    to = blockEnd(lines, at + 1, parentIndent);
  }
  if (found === undefined && isFlowDocument(text)) return flowKeyLine(lines, path);
  return found === undefined ? undefined : found + 1;
}

/**
 * In a file written as one flow mapping (`{"rating": 9, …}`), the line of the first `key:` of the
 * path's last name, anywhere on a line: its fields share lines, so no block is there to narrow to.
 */
function flowKeyLine(lines: readonly string[], path: readonly PropertyKey[]): number | undefined {
  const key = [...path].reverse().find((k) => typeof k === "string");
  if (key === undefined) return undefined;
  const at = lines.findIndex((l) => {
    // Past the line's end: indexOf of an empty name ("": 1) would find its end again and again.
    for (let i = l.indexOf(key); i >= 0; i = i < l.length ? l.indexOf(key, i + 1) : -1) {
      // The name may be quoted: its start is then the quote's.
      const start = i > 0 && (l[i - 1] === '"' || l[i - 1] === "'") ? i - 1 : i;
      if ((start === 0 || /[\s{,]/.test(l[start - 1] as string)) && nameEnd(l, start, key) !== undefined) return true;
    }
    return false;
  });
  return at < 0 ? undefined : at + 1;
}

const COLON = /\s*:/y;

/**
 * Where `line` goes on after the field name `key` written at `at`, plain or quoted (`"rating": 5`),
 * which YAML reads alike, and its colon; undefined when `key:` is not written there. Compared as
 * text, not with a regular expression made of the name: a name pasted tens of thousands of
 * characters long is more than a regular expression may hold.
 */
function nameEnd(line: string, at: number, key: string): number | undefined {
  for (const quote of ['"', "'", ""]) {
    let i = at;
    if (quote !== "" && line[i++] !== quote) continue;
    if (!line.startsWith(key, i)) continue;
    i += key.length;
    if (quote !== "" && line[i++] !== quote) continue;
    COLON.lastIndex = i;
    if (COLON.exec(line)) return COLON.lastIndex;
  }
  return undefined;
}

/**
 * Where `line` goes on after the colon when it is a block-style field `key` (at the start of the
 * line or of a list item); undefined when it is not.
 */
export function afterFieldName(line: string, key: string): number | undefined {
  return nameEnd(line, (/^\s*(?:-\s+)?/.exec(line) as RegExpExecArray)[0].length, key);
}

const indentOf = (line: string) => line.length - line.trimStart().length;
const ignored = (line: string) => line.trim() === "" || line.trimStart().startsWith("#");

/** The first line after `from` at or left of `indent`: where the block of the field above ends. */
function blockEnd(lines: readonly string[], from: number, indent: number): number {
  for (let i = from; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!ignored(line) && indentOf(line) <= indent) return i;
  }
  return lines.length;
}

function keyLine(lines: readonly string[], from: number, to: number, key: string): number | undefined {
  let shallowest: number | undefined;
  for (let i = from; i < to; i++) {
    const line = lines[i] as string;
    if (ignored(line) || afterFieldName(line, key) === undefined) continue;
    // The field itself, not one of the same name nested deeper (a response's `date`).
    if (shallowest === undefined || indentOf(line) < indentOf(lines[shallowest] as string)) shallowest = i;
  }
  return shallowest ?? afterQuoteLine(lines, from, to, key);
}

/**
 * The line where `key:` follows a quote (`date: 'unclosed` then `p'key: 1`): js-yaml reads a name
 * written after the closing quote of a value begun on a line above as the next field of its block.
 */
function afterQuoteLine(lines: readonly string[], from: number, to: number, key: string): number | undefined {
  for (let i = from; i < to; i++) {
    const line = lines[i] as string;
    if (ignored(line)) continue;
    for (const quote of line.matchAll(/['"][ \t]*/g)) {
      if (nameEnd(line, quote.index + quote[0].length, key) !== undefined) return i;
    }
  }
  return undefined;
}

function itemLine(
  lines: readonly string[],
  from: number,
  to: number,
  parentIndent: number,
  index: number,
): number | undefined {
  let seen = -1;
  let itemIndent: number | undefined;
  for (let i = from; i < to; i++) {
    const line = lines[i] as string;
    if (ignored(line) || !/^\s*-(\s|$)/.test(line)) continue;
    const indent = indentOf(line);
    if (indent < parentIndent) break;
    itemIndent ??= indent;
    if (indent !== itemIndent) continue;
    if (++seen === index) return i;
  }
  return undefined;
}

/**
 * The path of the field a line (1-based) of `text` belongs to: the key written on it, or, for a
 * line of a `|` block or of a value going on over several lines, the key above whose value it
 * continues. Empty for a comment or a line outside every field. The inverse of `fieldLine`, for
 * what is found in the raw text before the YAML is read (a literal control character).
 */
export function fieldAtLine(text: string, line: number): PropertyKey[] {
  const lines = text.split(/\r?\n/);
  const open: { indent: number; key: PropertyKey }[] = [];
  // The next index of each list, by its parent's path and its items' indentation.
  const nextItem = new Map<string, number>();
  const path = () => open.map((o) => o.key);
  const closeFrom = (indent: number) => {
    while ((open.at(-1)?.indent ?? -1) >= indent) open.pop();
  };
  let block: number | undefined;
  for (let i = 0; i < Math.min(line, lines.length); i++) {
    const l = lines[i] as string;
    const target = i === line - 1;
    // A block's lines are its key's value whatever they hold, blank lines included.
    if (block !== undefined && (l.trim() === "" || indentOf(l) > block)) {
      if (target) return path();
      continue;
    }
    block = undefined;
    if (ignored(l)) {
      if (target) return [];
      continue;
    }
    let indent = indentOf(l);
    let rest = l.slice(indent);
    const dash = /^-(?:[ \t]+|$)/.exec(rest);
    if (dash) {
      // Items may stand at their key's own indentation (`services:` then `- x`): only an item there ends.
      closeFrom(indent + 1);
      if (typeof open.at(-1)?.key === "number" && open.at(-1)?.indent === indent) open.pop();
      const list = `${path().join("\0")}@${indent}`;
      const index = nextItem.get(list) ?? 0;
      nextItem.set(list, index + 1);
      open.push({ indent, key: index });
      indent += dash[0].length;
      rest = rest.slice(dash[0].length);
    }
    const key = /^([^\s#"'][^:]*?)[ \t]*:(?:[ \t]+(.*)|$)/.exec(rest);
    if (key) {
      closeFrom(indent);
      open.push({ indent, key: key[1] as string });
      if (/^[|>]/.test(key[2] ?? "")) block = indent;
    }
    // Neither a key nor an item: a further line of the value above.
    if (target) return path();
  }
  return [];
}
