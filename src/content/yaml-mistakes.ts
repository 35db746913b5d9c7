/**
 * The YAML mistakes people make when they write a review by hand, found line by line in the text
 * so the message can name the line that is wrong and say what to type instead. js-yaml alone
 * reports where its parser gave up, in its own words, often lines below the cause ("bad
 * indentation of a mapping entry" for an unquoted colon, two lines after a text line that lost its
 * indentation), and some mistakes it does not report at all: an unquoted ` #` silently cuts the
 * rest of a title off as a comment.
 *
 * The scan is deliberately conservative: it only recognises the shapes of a content file (fields
 * written `name: value`, nested fields, lists, `|` text blocks) and flags a line only when one of
 * the mistakes below is certain, so a valid file never gets a message from here. This module owns
 * the lines (indentation, tabs, repeated fields, text blocks, quotes left open across lines);
 * what can be wrong inside one field's value is in yaml-value-mistakes.ts.
 */

import { named, shortened } from "./characters.ts";
import { inlineFlowComments } from "./yaml-flow-mistakes.ts";
import {
  closes,
  depth,
  indicatorMistake,
  isData,
  plainValueMistake,
  startsWithIndicator,
  textAfterQuote,
  the,
  unclosed,
  unclosedQuote,
} from "./yaml-value-mistakes.ts";

export interface YamlMistake {
  /** 1-based. */
  line: number;
  message: string;
}

/**
 * A field as content files write it: `name: value`, `name:` or `- name: value`; the name may be
 * quoted (`"name": value`, as JSON-to-YAML tools write it) or spaced from its colon, which YAML reads alike.
 */
const ENTRY = /^( *)(- +)?(?:"([A-Za-z_][\w-]*)"|'([A-Za-z_][\w-]*)'|([A-Za-z_][\w-]*))[ \t]*:(?:[ \t]+(.*))?$/;
/**
 * `name:value`, the space after the colon forgotten (not `url:` of a link written `https://`). Not
 * in a list, whose items may be text with a colon (`- note:see below`).
 */
const NO_SPACE = /^( *)()([A-Za-z_][\w-]*):([^\s:/].*)$/;
const LIST_ITEM = /^( *)- +(.*)$/;

interface Level {
  indent: number;
  keys: Map<string, number>;
}

/** A line in one of the shapes a well-formed content file has: `name: value`, `- item`, `# note`. */
const PLAIN_SHAPE = /^(?:[a-z_][\w-]*:(?: |$)|- |#)/;

/**
 * Whether a file YAML reads without complaint may still hold a mistake it reads wrongly (a ` #`,
 * a curly quote, a line in none of the shapes above outside a `|` block). A quick pass, one regex
 * per line outside text blocks, that most files pass, so the full scan, which costs about as much
 * as parsing, runs only where it can find something.
 */
export function mayHideMistake(text: string): boolean {
  if (
    /[ \t]#|[\u201c\u2018\u201e\u00ab]|^[ \u00a0]*\u00a0|^ *(?:- +)?<<[ \t]*:|(?::|^ *-)[ \t]+[&*!%@`]|^ *[a-z_][\w-]*: +(["']).*\1[ \t]*[^\s#]/m.test(
      text,
    )
  )
    return true;
  let block = -1;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    let i = start;
    while (i < end && text.charCodeAt(i) === 32) i++;
    if (i < end && !(block >= 0 && i - start > block)) {
      const line = text.slice(i, end).trimEnd();
      if (line !== "" && !PLAIN_SHAPE.test(line)) return true;
      block = line !== "" && /:[ \t]*[|>][-+\d]*$/.test(line) ? i - start : -1;
    }
    start = end + 1;
  }
  return false;
}

/** Every mistake found in `text`, in line order. Empty for a well-formed file. */
export function findYamlMistakes(text: string): YamlMistake[] {
  const lines = text.split(/\r?\n/);
  const found: YamlMistake[] = [];
  const levels: Level[] = [];
  /** A `|`/`>` block or plain value going on below, more indented than `indent`; `data`: a date, number or list. */
  let running: { indent: number; key: string; kind: "block" | "plain" | "reported"; data?: boolean } | undefined;
  /** A quoted value left open: its quote, where it started and how far its field is indented. */
  let open: { quote: string; line: number; key: string; indent: number } | undefined;
  /** A list or mapping written inline (`[a, b]`), while its brackets are still open. */
  let flow: { line: number; key: string; close: string; depth: number } | undefined;
  /** The indentation of a field just written with nothing after its colon: its value may follow below. */
  let empty: number | undefined;
  let emptyKey = "";

  const duplicate = (indent: number, key: string, n: number) => {
    while (levels.length > 0 && (levels.at(-1) as Level).indent > indent) levels.pop();
    let level = levels.at(-1);
    if (!level || level.indent < indent) {
      level = { indent, keys: new Map() };
      levels.push(level);
    }
    const first = level.keys.get(key);
    if (first !== undefined) {
      found.push({
        line: n,
        message: `${shortened(key)} appears twice (also on line ${first}) — keep the one you mean and delete the other`,
      });
    } else level.keys.set(key, n);
  };

  /** Anchors (`&day`) defined so far, and every alias (`*day`) the file uses: a working pair is no mistake. */
  const anchors = new Set<string>();
  const aliases = new Set([...text.matchAll(/(?:^|[\s,[{])\*([^\s,[\]{}]+)/gm)].map((m) => m[1] as string));

  lines.forEach((raw, i) => {
    const n = i + 1;
    const line = raw.replace(/[ \t]+$/, "");
    if (open) {
      // A field at the quoted field's own indentation: the quote was never closed on its line.
      const next = ENTRY.exec(line);
      if (next && (next[1] as string).length <= open.indent && !next[2]) {
        found.push(unclosedQuote(open));
        open = undefined;
      } else {
        if (closes(line, open.quote) >= 0) open = undefined;
        return;
      }
    }
    if (/^[ \u00a0]*\u00a0/.test(raw)) {
      found.push({
        line: n,
        message:
          "this line is indented with non-breaking spaces (pasted from a word processor), which YAML does not count as indentation — delete the spaces at the start of the line and type them again",
      });
      return;
    }
    // Spaces only: a tab is no indentation to YAML.
    const indent = (/^ */.exec(line) as RegExpExecArray)[0].length;
    const blank = line.trim() === "" || line.trimStart().startsWith("#");
    // Inside a `|` block such a space is the text's own; anywhere else it makes the line no field.
    const odd = ODD_SPACE.exec(line);
    if (odd && !(running?.kind === "block" && indent > running.indent)) {
      found.push({ line: n, message: oddSpaceMessage(line, odd[1] as string) });
      running = undefined;
      return;
    }
    if (running && (blank || indent > running.indent)) {
      if (flow && !blank) flow.depth += depth(line);
      else if (running.kind === "plain" && !blank && /: |:$|[ \t]#/.test(line.trim())) {
        const { key } = running;
        const field = /^([a-z_]+):(?: |$)/.exec(line.trim())?.map((m) => shortened(m));
        found.push({
          line: n,
          message: field
            ? `${field[1]} is indented more than the field above it — remove the spaces before ${field[1]}: so it lines up with ${key}:`
            : `this line of ${the(key)} contains ${line.includes(":") ? '": "' : '" #"'} — write the ${key} as a text block: put "|" after "${key}:" and indent every line of the ${key} by two spaces`,
        });
        running = { ...running, kind: "reported" };
      }
      return;
    }
    if (blank || /^(?:---|\.\.\.|%)/.test(line)) return;
    // `text:` with the text on the lines below, more indented: a value, not fields.
    const below = empty;
    const belowKey = emptyKey;
    empty = undefined;
    const fieldLike = ENTRY.test(line) || LIST_ITEM.test(line) || NO_SPACE.test(line) || /: |:$/.test(line);
    if (below !== undefined && indent > below && !fieldLike) {
      running = { indent: below, key: belowKey, kind: "plain" };
      return;
    }
    const wasRunning = running;
    running = undefined;
    if (flow && flow.depth > 0) found.push(unclosed(flow));
    flow = undefined;
    if (/^ *\t/.test(raw)) {
      found.push({ line: n, message: TAB_MESSAGE });
      // How deep the line was meant to be is unknown, so the fields below it are no repeats of those above.
      levels.length = 0;
      return;
    }
    if (MERGE_KEY.test(line)) {
      found.push({ line: n, message: MERGE_MESSAGE });
      return;
    }
    const noSpace = NO_SPACE.exec(line);
    if (noSpace && !ENTRY.test(line)) {
      const [, , dash = "", key = "", rest = ""] = noSpace;
      found.push({
        line: n,
        message: `put a space after the colon: ${dash}${shortened(key)}: ${shortened(rest)}`,
      });
      return;
    }
    const entry = ENTRY.exec(line);
    if (!entry) {
      const item = LIST_ITEM.exec(line);
      if (item) {
        while (levels.length > 0 && (levels.at(-1) as Level).indent > indent) levels.pop();
        const v = yamlTrim(item[2] as string);
        if (v.startsWith('"') || v.startsWith("'")) {
          if (closes(v.slice(1), v[0] as string) < 0) open = { quote: v[0] as string, line: n, key: "item", indent };
        } else running = { indent, key: "item", kind: /^[|>]/.test(v) ? "block" : "plain" };
        return;
      }
      if (wasRunning && !wasRunning.data) {
        found.push({ line: n, message: LOST_INDENT });
        // The lines after it belong to the same text: one message for the whole mistake.
        running = wasRunning;
      } else {
        found.push({
          line: n,
          message: "this line is not a field (a field is written as name: value) — fix or remove it",
        });
      }
      return;
    }
    const [, spaces = "", dash, doubleQuoted, singleQuoted, plain, value = ""] = entry;
    const written = doubleQuoted ?? singleQuoted ?? plain ?? "";
    const key = shortened(written); // as messages name it; the whole name only tells repeats apart
    const keyIndent = spaces.length + (dash?.length ?? 0);
    // Field names are lower case: a capitalised "name:" right below a text block is a line of it.
    if (wasRunning?.kind === "block" && !dash && keyIndent <= wasRunning.indent && /[A-Z]/.test(key)) {
      found.push({ line: n, message: LOST_INDENT });
      running = wasRunning;
      return;
    }
    if (dash) while (levels.length > 0 && (levels.at(-1) as Level).indent >= keyIndent) levels.pop();
    duplicate(keyIndent, written, n);
    // Spaces and tabs only, as YAML strips them: a no-break or em space starts the value itself.
    const v = yamlTrim(value);
    if (v === "") {
      empty = keyIndent;
      emptyKey = key;
      return;
    }
    const anchor = /^&([^\s,[\]{}]+)/.exec(v);
    if (anchor) anchors.add(anchor[1] as string);
    if (startsWithIndicator(v)) {
      const message = indicatorMistake(key, v, anchors, aliases);
      if (message) found.push({ line: n, message });
      return;
    }
    // A list or mapping written inline may go on over the next, more indented, lines.
    if (v.startsWith("[") || v.startsWith("{")) {
      found.push(...inlineFlowComments(lines, i, keyIndent, v));
      running = { indent: keyIndent, key, kind: "plain", data: true };
      flow = { line: n, key, close: v.startsWith("[") ? "]" : "}", depth: depth(v) };
      if (flow.depth <= 0) flow = undefined;
      return;
    }
    if (/^[|>]/.test(v)) {
      running = { indent: keyIndent, key, kind: "block" };
      return;
    }
    if (v.startsWith('"') || v.startsWith("'")) {
      const end = closes(v.slice(1), v[0] as string);
      if (end < 0) open = { quote: v[0] as string, line: n, key, indent: keyIndent };
      else {
        const message = textAfterQuote(key, v, end);
        if (message) found.push({ line: n, message });
      }
      return;
    }
    const message = plainValueMistake(key, v);
    if (message) {
      found.push({ line: n, message });
      return;
    }
    running = { indent: keyIndent, key, kind: "plain", data: isData(v) };
  });
  if (flow && flow.depth > 0) found.push(unclosed(flow));
  if (open) found.push(unclosedQuote(open));
  return found.sort((a, b) => a.line - b.line);
}

/** A space character YAML does not count as one (not the no-break space: named above) first on a line. */
const ODD_SPACE = /^ *([\u1680\u2000-\u200B\u202F\u205F\u2060\u3000\uFEFF])/;
const MERGE_KEY = /^ *(?:- +)?<<[ \t]*:/;
const MERGE_MESSAGE =
  "<<: a merge key (<<), which copies fields from elsewhere, is not allowed in a content file — write each field out on its own line";

function oddSpaceMessage(line: string, space: string): string {
  const key = /^[\s\u1680\u2000-\u200B\u202F\u205F\u2060\u3000\uFEFF]*(?:- +)?([^\s:#]+):(?:\s|$)/.exec(line)?.[1];
  return `${key === undefined ? "" : `${shortened(key)}: `}this line starts with an unusual space character (${named(space.codePointAt(0) as number)}, pasted from a word processor?), which YAML does not count as a space — delete the spaces at the start of the line and type them again`;
}

const yamlTrim = (s: string) => s.replace(/^[ \t]+|[ \t]+$/g, "");

const LOST_INDENT =
  "this line belongs to the text above but is not indented — indent every line of the text by two spaces";

const TAB_MESSAGE = "this line is indented with a tab — YAML needs spaces: replace the tab with two spaces";
