import jsYaml from "js-yaml";
import { badCharacterLine } from "./characters.ts";
import { fieldPath, messageStart } from "./errors.ts";
import { fieldAtLine } from "./field-lines.ts";
import { flowCommentMistakes, isFlowDocument } from "./yaml-flow-mistakes.ts";
import { findYamlMistakes, mayHideMistake } from "./yaml-mistakes.ts";

/**
 * Parses content YAML (business.yaml, review files). js-yaml rather than the `yaml` package used
 * elsewhere: review files are parsed by the ten thousand, and js-yaml is about ten times faster on
 * them. CORE_SCHEMA keeps dates as the strings editors wrote (no implicit timestamps); duplicate
 * keys are errors.
 */

/**
 * Most nodes that aliases may add to one document. js-yaml shares an aliased node instead of
 * copying it, so a "billion laughs" file (nine levels of nine aliases, 668 bytes) parses at once,
 * but validating or serialising it walks 10^9 nodes and fails with "Invalid string length" and
 * no file name. A review file has a few dozen nodes and uses no alias at all.
 */
export const MAX_ALIAS_NODES = 10_000;

class TooManyAliases extends Error {
  readonly line: number;
  constructor(line: number) {
    super(`too many aliases: they expand to more than ${MAX_ALIAS_NODES} nodes`);
    this.line = line;
  }
}

/**
 * A js-yaml listener that counts the nodes each alias stands for (shared sub-trees counted once
 * per use, memoised so counting itself stays linear) and stops the parse past the limit.
 */
function aliasGuard(): (
  event: "open" | "close",
  state: { line: number; kind: string | null; result: unknown },
) => void {
  const sizes = new WeakMap<object, number>();
  const size = (v: unknown): number => {
    if (v === null || typeof v !== "object") return 1;
    let n = sizes.get(v);
    if (n === undefined) {
      n = 1;
      for (const child of Object.values(v)) n = Math.min(n + size(child), MAX_ALIAS_NODES + 1);
      sizes.set(v, n);
    }
    return n;
  };
  const opened: number[] = [];
  let expanded = 0;
  return (event, state) => {
    if (event === "open") {
      opened.push(state.line);
      return;
    }
    const line = opened.pop() ?? state.line;
    // An alias is the one node that closes with a value but no kind of its own.
    if (state.kind !== null || state.result === null || state.result === undefined) return;
    expanded += size(state.result);
    if (expanded > MAX_ALIAS_NODES) throw new TooManyAliases(line + 1);
  };
}

/**
 * Parses `text`; on a mistake pushes `file: line N: what is wrong — what to do` to `problems` and
 * returns undefined. A file js-yaml reads but that holds one of the mistakes it reads wrongly (a
 * title cut short by ` #`, a line of text that lost its indentation becoming a field) is refused
 * too: its value is not what the editor wrote.
 */
export function parseContentYaml(
  file: string,
  text: string,
  problems: string[],
  /** What to do with an empty file: a review's advice unless the caller reads another file. */
  ifEmpty = "write the review's fields in it, or delete it",
): unknown {
  // A character no field may hold, found before the YAML reader stops at it in its own words,
  // and named at the field its line belongs to, as the same character written as an escape is.
  const bad = badCharacterLine(text);
  if (bad) {
    const at = fieldAtLine(text, bad.line);
    problems.push(`${messageStart(file, bad.line)}${at.length > 0 ? `${fieldPath(at)}:` : "this line"} ${bad.message}`);
    return undefined;
  }
  let value: unknown;
  try {
    value = jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA, filename: file, listener: aliasGuard() });
  } catch (err) {
    const lines = text.split("\n");
    if (err instanceof TooManyAliases) {
      problems.push(
        `${messageStart(file, err.line)}${err.message} — a review file needs no aliases (*name), write the values out`,
      );
      return undefined;
    }
    // js-yaml gives no line for a second document, and the scan would take its fields for repeats.
    const second = err instanceof jsYaml.YAMLException && !err.mark ? secondDocumentLine(lines) : undefined;
    if (second !== undefined) {
      problems.push(`${messageStart(file, second)}${SECOND_DOCUMENT}`);
      return undefined;
    }
    const mistakes = isFlowDocument(text) ? flowCommentMistakes(text) : findYamlMistakes(text);
    if (mistakes.length > 0) {
      for (const m of mistakes) problems.push(`${messageStart(file, m.line)}${m.message}`);
    } else if (err instanceof jsYaml.YAMLException && err.mark) {
      // At end of input js-yaml points one past the last line; name the last line instead.
      const line = Math.max(1, Math.min(err.mark.line + 1, lines.length - (text.endsWith("\n") ? 1 : 0)));
      problems.push(
        `${messageStart(file, line)}this line cannot be read (${err.reason}) — check it for a missing quote, colon or space, or compare it with a review file that builds`,
      );
    } else {
      problems.push(
        `${messageStart(file, 1)}the file cannot be read as YAML — compare it with a review file that builds`,
      );
    }
    return undefined;
  }
  // `a: &a [*a]` reads as a value that contains itself: every later walk of it would never end.
  // Only a text with an alias can hold one, so most files are not walked.
  if (text.includes("*") && containsItself(value)) {
    const line = text.split("\n").findIndex((l) => /(^|[\s[{,])\*[^\s,\]}]+/.test(l)) + 1;
    problems.push(
      `${messageStart(file, Math.max(1, line))}a value contains itself through an alias — a review file needs no aliases (*name), write the values out`,
    );
    return undefined;
  }
  // An empty file, or one of comments only, reads as nothing: it would otherwise be passed over unseen.
  if (value === undefined || value === null) {
    problems.push(`${messageStart(file, 1)}the file is empty — ${ifEmpty}`);
    return undefined;
  }
  const mistakes = isFlowDocument(text)
    ? flowCommentMistakes(text)
    : mayHideMistake(text)
      ? findYamlMistakes(text)
      : [];
  if (mistakes.length === 0) return value;
  for (const m of mistakes) problems.push(`${messageStart(file, m.line)}${m.message}`);
  return undefined;
}

const SECOND_DOCUMENT =
  'a line "---" or "..." ends the file\'s YAML document and starts another — a content file holds one document: delete this line, and put what follows it in a file of its own if it is another review';

/** The first line of `---` or `...` below a line of content: where a second YAML document begins. */
function secondDocumentLine(lines: readonly string[]): number | undefined {
  let content = false;
  for (const [i, raw] of lines.entries()) {
    const line = (i === 0 ? raw.replace(/^\uFEFF/, "") : raw).replace(/\r$/, "");
    if (content && /^(?:---|\.\.\.)(?:[ \t]|$)/.test(line)) return i + 1;
    if (!/^\s*(?:#.*)?$/.test(line) && !/^(?:---|%)/.test(line)) content = true;
  }
  return undefined;
}

/** Whether `value` holds itself (an alias to an anchor around it), found by walking it once. */
function containsItself(value: unknown, open = new Set<object>(), done = new Set<object>()): boolean {
  if (value === null || typeof value !== "object") return false;
  if (open.has(value)) return true;
  if (done.has(value)) return false;
  open.add(value);
  for (const child of Object.values(value)) if (containsItself(child, open, done)) return true;
  open.delete(value);
  done.add(value);
  return false;
}
