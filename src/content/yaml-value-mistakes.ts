/**
 * The mistakes inside the value written after one field's `name: `: an indicator character YAML
 * reads as syntax (`*`, `&`, `!`, …), a quote left open or followed by more text, a word
 * processor's curly quotes, an unquoted `: ` or ` #`, an inline list whose bracket is never closed.
 * The line scan in yaml-mistakes.ts finds the value; the messages here say what to type instead.
 */

import type { YamlMistake } from "./yaml-mistakes.ts";

/** A value wholly in a word processor's quotes: “…”, ‘…’, „…“, „…”, «…». */
const CURLY_QUOTED = /^(?:\u201c.*\u201d|\u2018.*\u2019|\u201e.*[\u201c\u201d]|\u00ab.*\u00bb)$/s;
/** Values a comment may follow on purpose: numbers, true/false, empty, dates. */
const NOT_TEXT = /^(?:[-+]?\d[\d_.]*|true|false|null|~|\d{4}-\d\d-\d\d(?:[Tt ][\d:.]+(?:[Zz]|[-+]\d\d:?\d\d)?)?)$/i;

/**
 * How a value can be written on one line so YAML reads all of it as text; a long one (a review
 * pasted on one line) shown by its two ends, where the quotes go, not repeated whole.
 */
export function quoted(value: string): string {
  const q = !value.includes('"') && !value.includes("\\") ? `"${value}"` : `'${value.replaceAll("'", "''")}'`;
  if (q.length <= 80) return q;
  const chars = [...q];
  return chars.length <= 80 ? q : `${chars.slice(0, 50).join("")} ... ${chars.slice(-25).join("")}`;
}

export const the = (key: string) => `the ${key}`;

/** What YAML makes of a value that starts with one of its indicator characters; a content file needs none. */
const SIGILS: Record<string, string> = {
  "*": "which YAML reads as a reference to another value (an alias)",
  "&": "which YAML reads as a name for the value (an anchor), dropping the word after it",
  "!": "which YAML reads as a type tag",
  "%": "which YAML reserves: a value cannot start with it",
  "@": "which YAML reserves: a value cannot start with it",
  "`": "which YAML reserves: a value cannot start with it",
};

/** Whether `v` starts with one of YAML's indicator characters (a mistake unless `indicatorMistake` says otherwise). */
export function startsWithIndicator(v: string): boolean {
  return SIGILS[v[0] as string] !== undefined;
}

/**
 * The message for a value starting with an indicator character, or undefined when it is a working
 * alias or anchor (`&day` used later as `*day`) or a standard tag (`!!str`): YAML, not a mistake.
 */
export function indicatorMistake(
  key: string,
  v: string,
  anchors: ReadonlySet<string>,
  aliases: ReadonlySet<string>,
): string | undefined {
  const name = /^[*&]([^\s,[\]{}]+)/.exec(v)?.[1];
  let deliberate: boolean;
  if (v.startsWith("*")) deliberate = name !== undefined && anchors.has(name) && v === `*${name}`;
  else if (v.startsWith("&")) deliberate = name !== undefined && aliases.has(name);
  // Only the tags the content files' YAML schema knows; `!!binary` or `!!timestamp` it cannot read.
  else deliberate = /^!!(?:str|int|float|bool|null|map|seq)(?:[ \t]|$)/.test(v);
  if (deliberate) return undefined;
  return `${the(key)} starts with ${v[0]}, ${SIGILS[v[0] as string]} — put the whole ${key} in quotes: ${key}: ${quoted(v)}`;
}

/** Where in `rest` (what follows an opening quote) the quote closes, allowing `\"` and `''` inside; -1 if it does not. */
export function closes(rest: string, quote: string): number {
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (quote === '"' && c === "\\") i++;
    else if (c === quote) {
      if (quote === "'" && rest[i + 1] === "'") i++;
      else return i;
    }
  }
  return -1;
}

export function unclosedQuote({ quote, line, key }: { quote: string; line: number; key: string }): YamlMistake {
  return {
    line,
    message: `the quote that opens ${the(key)} is never closed — end the ${key} with ${quote} on the same line`,
  };
}

/** The message for a quoted value that closes at `end` (as `closes` finds it) and goes on after it. */
export function textAfterQuote(key: string, v: string, end: number): string | undefined {
  if (!/^[ \t]*[^\s#]/.test(v.slice(end + 2))) return undefined;
  return `${the(key)} starts with a quoted part and goes on after the closing quote — put the whole ${key} in quotes: ${key}: ${quoted(v)}`;
}

/** The message for an unquoted value YAML reads other than as written: curly quotes, `: `, ` #`. */
export function plainValueMistake(key: string, v: string): string | undefined {
  if (CURLY_QUOTED.test(v)) {
    const inner = v.slice(1, -1).trim();
    const fix = NOT_TEXT.test(inner)
      ? `remove them: ${key}: ${inner}`
      : `use straight quotes: ${key}: ${quoted(inner)}`;
    return `${the(key)} is in curly quotes (“ ”), which YAML does not understand — ${fix}`;
  }
  if (/: |:$/.test(v)) return `${the(key)} contains ": " — put the whole ${key} in quotes: ${key}: ${quoted(v)}`;
  const hash = /[ \t]#/.exec(v);
  if (hash && !NOT_TEXT.test(v.slice(0, hash.index).trim())) {
    return `everything in ${the(key)} from " #" on is ignored (YAML reads it as a comment) — put the whole ${key} in quotes: ${key}: ${quoted(v)}`;
  }
  return undefined;
}

/** Whether a plain value is a number, a date or a yes/no (a comment after it aside), not text. */
export const isData = (v: string): boolean => NOT_TEXT.test(v.replace(/[ \t]#.*$/, "").trim());

/** Brackets opened minus closed on a line, outside quotes. */
export function depth(line: string): number {
  let d = 0;
  let quote: string | undefined;
  // A quote opens a quoted value only where a value starts (`children's` is no quote).
  let start = true;
  for (const c of line) {
    if (quote) {
      if (c === quote) quote = undefined;
      continue;
    }
    if ((c === '"' || c === "'") && start) quote = c;
    else if (c === "[" || c === "{") d++;
    else if (c === "]" || c === "}") d--;
    if (c !== " ") start = c === "[" || c === "{" || c === "," || c === ":";
  }
  return d;
}

export function unclosed(flow: { line: number; key: string; close: string }): YamlMistake {
  const opens = flow.close === "]" ? "[" : "{";
  return {
    line: flow.line,
    message: `the ${flow.key} opens with ${opens} but it is never closed — end it with ${flow.close} on the same line`,
  };
}
