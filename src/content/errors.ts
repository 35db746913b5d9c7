import type { z } from "zod";
import { fileLabel, printableLine, quoteValue, shortened } from "./characters.ts";
import { afterFieldName, fieldLine } from "./field-lines.ts";
import { knownKeys, mayBeLeftOut, nearest } from "./known-keys.ts";

/**
 * Content problems in the one format editors see: `file: line N: field: what is wrong, got X`, or a
 * plain sentence saying what to do (`the rating is empty — write a whole number from 1 to 5`). A
 * build collects every problem before failing so an editor fixes a batch in one pass. No message
 * shows a programmer's word for "nothing" (null, undefined, NaN): an editor never typed one.
 */
export class ContentError extends Error {
  override name = "ContentError";
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    const lines = problems.map(printableLine);
    super(
      lines.length === 1
        ? `Invalid content: ${lines[0]}`
        : `Invalid content (${lines.length} problems):\n${lines.map((p) => `  ${p}`).join("\n")}`,
    );
    this.problems = problems.map(printableLine);
  }
}

/** A value written back the way YAML would show it (`.nan`, `[a, b]`), never as JavaScript would. */
function render(v: unknown): string {
  if (v === undefined || v === null) return "nothing";
  if (typeof v === "string") return quoteValue(v);
  if (typeof v === "number") {
    if (Number.isNaN(v)) return ".nan";
    if (!Number.isFinite(v)) return v > 0 ? ".inf" : "-.inf";
    return String(v);
  }
  if (typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${v.map(render).join(", ")}]`;
  if (typeof v === "object") {
    // js-yaml makes an empty key (`[:]`, `{: 1}`) the key "null": shown empty, as it was written.
    return `{${Object.entries(v)
      .map(([k, x]) => `${k === "null" ? "" : k}: ${render(x)}`)
      .join(", ")}}`;
  }
  return typeof v;
}

/** Renders a value the way an editor wrote it, shortened so one bad field can't flood a log. */
export function showValue(v: unknown): string {
  if (v === undefined) return "nothing (the field is missing)";
  if (v === null) return "nothing (the field is empty)";
  const s = render(v);
  // Never half a character: a cut between a surrogate pair would print a broken one.
  return s.length > 80 ? `${s.slice(0, /[\uD800-\uDBFF]/.test(s[76] ?? "") ? 76 : 77)}...` : s;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** Unknown fields named one by one in a place; the rest are counted in one line. */
const MAX_UNKNOWN_LISTED = 20;

export interface IssueSource {
  /** The file's text, to name the line of each field. */
  text?: string;
  /** The file's schema, to suggest the nearest known field for an unknown one. */
  schema?: z.ZodType;
}

/**
 * One line per zod issue: `file: line N: a.b[2]: message, got value`. An unknown field gets a line
 * of its own that suggests the nearest known field of that place in `schema`; an over-long text
 * reports its length, not its start.
 */
export function formatIssues(
  file: string,
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  source: IssueSource = {},
): string[] {
  const lineOf = (path: readonly PropertyKey[]) =>
    source.text === undefined ? undefined : fieldLine(source.text, path);
  // A field reported as missing next to a misspelling of it is one mistake: the misspelling says it.
  const misspelt = new Set<string>();
  const unknown = new Map<z.core.$ZodIssue, string[]>();
  for (const issue of issues) {
    if (issue.code !== "unrecognized_keys") continue;
    const known = source.schema ? knownKeys(source.schema, issue.path) : [];
    const present = Object.keys((valueAt(input, issue.path) ?? {}) as object);
    // Named one by one up to a bound: each is looked up in the text, and a pasted blob can hold
    // tens of thousands (which took minutes to report).
    const listed = issue.keys.slice(0, MAX_UNKNOWN_LISTED);
    const lines = listed.map((key) => {
      const at = [...issue.path, key];
      const best = nearest(
        key,
        known.filter((k) => !present.includes(k)),
      );
      if (best) misspelt.add(fieldPath([...issue.path, best]));
      const advice = best
        ? `did you mean ${best}? If not, remove the line`
        : `check its spelling or remove it${known.length ? ` (the fields here are ${known.join(", ")})` : ""}`;
      return `${messageStart(file, lineOf(at))}${fieldPath(at)} is not a known field — ${advice}`;
    });
    const more = issue.keys.length - listed.length;
    if (more > 0) {
      const where = issue.path.length ? ` in ${fieldPath(issue.path)}` : "";
      lines.push(
        `${messageStart(file, lineOf(issue.path))}${more} more fields${where} are not known fields either — remove them (the first ${listed.length} are named above)`,
      );
    }
    unknown.set(issue, lines);
  }
  // Two checks of one value may say the same thing (an integer past 2^53 is neither whole nor in range).
  const lines = issues.flatMap((issue) => {
    const lines = unknown.get(issue);
    if (lines) return lines;
    const field = issue.path.length ? fieldPath(issue.path) : "(file)";
    const got = valueAt(input, issue.path);
    if (got === undefined && misspelt.has(field)) return [];
    // A file that is not a list of fields at all: its first line says so.
    const line = issue.path.length ? lineOf(issue.path) : source.text === undefined ? undefined : 1;
    const key = issue.path.at(-1);
    if (issue.code === "invalid_key" && typeof key === "string") {
      // The key is what is wrong, not its value; a name over its limit is told by its length.
      const tooLong = issue.issues[0]?.code === "too_big";
      return `${messageStart(file, line)}${field}: ${issue.message}, got ${tooLong ? `${[...key].length} characters` : showValue(key)}`;
    }
    if (issue.code === "too_big" && issue.origin === "string" && typeof got === "string") {
      // Code points, as the limit counts them: an emoji is one character, not its two UTF-16 units.
      return `${messageStart(file, line)}${field}: ${issue.message}, got ${[...got.trim()].length} characters`;
    }
    const typed = typeof got === "number" || typeof got === "boolean";
    if (issue.code === "invalid_type" && issue.expected === "string" && typed) {
      return `${messageStart(file, line)}${notText(field, issue.path, got, source.text, line)}`;
    }
    // `author: Null` (a name) reads as nothing: said as written, not as an empty field. A written
    // `null` or `~` means empty, and is told so below.
    const nothing = got === null && typeof key === "string" ? writtenValue(source.text, line, key) : undefined;
    if (issue.code === "invalid_type" && issue.expected === "string" && (nothing === "Null" || nothing === "NULL")) {
      return `${messageStart(file, line)}${field}: YAML reads ${nothing} as nothing, not as text — put it in quotes: ${String(key)}: ${quoteValue(nothing)}`;
    }
    // A number in quotes is text to YAML: `rating: "5"` would otherwise read "expected 1 to 5, got "5"".
    if (issue.code === "invalid_type" && issue.expected === "number" && typeof got === "string") {
      const n = got.trim();
      if (n !== "" && Number.isFinite(Number(n)) && typeof key === "string") {
        return `${messageStart(file, line)}${field}: ${issue.message}, got ${quoteValue(got)}, which the quotes make text — remove them: ${key}: ${n}`;
      }
    }
    const message = issue.message.replace(/,? received \w+$/, "");
    const optional = source.schema !== undefined && mayBeLeftOut(source.schema, issue.path);
    if (optional && isEmpty(got) && message.startsWith("expected ")) {
      return `${messageStart(file, line)}the ${field} is empty — write ${message.slice("expected ".length)}, or remove the line`;
    }
    return problem(file, field, message, got, line);
  });
  return [...new Set(lines)];
}

/**
 * A value YAML read as a number or true/false where text goes (`author: 0x1F`, `title: 1984`): said
 * with the value as written, since YAML's reading of it (31) is not what the editor typed.
 */
function notText(
  field: string,
  path: readonly PropertyKey[],
  got: number | boolean,
  text: string | undefined,
  line: number | undefined,
): string {
  const key = path.at(-1);
  const written = typeof key === "string" ? writtenValue(text, line, key) : undefined;
  const shown = written ?? render(got);
  const reading = typeof got === "boolean" ? "a yes/no value" : "a number";
  const asRead = written !== undefined && written !== render(got) ? ` (${render(got)})` : "";
  const fix = written === undefined ? "put it in quotes" : `put it in quotes: ${String(key)}: ${quoteValue(written)}`;
  return `${field}: YAML reads ${shown} as ${reading}${asRead}, not as text — ${fix}`;
}

/** The value written after `key:` on the 1-based `line` of `text`, without a comment; undefined when not there. */
function writtenValue(text: string | undefined, line: number | undefined, key: string): string | undefined {
  const l = line === undefined ? undefined : text?.split(/\r?\n/)[line - 1];
  const end = l === undefined ? undefined : afterFieldName(l, key);
  const m = end === undefined ? null : /^\s+(.*)$/.exec((l as string).slice(end));
  const v = m?.[1]?.replace(/\s+#.*$/, "").trim();
  return v && !/^[[{!&*]/.test(v) ? v : undefined;
}

const located = (line: number | undefined) => (line === undefined ? "" : `line ${line}: `);

/** The start of every content message: the file (quoted when its name is unusual), then the line. */
export function messageStart(file: string, line?: number): string {
  return `${fileLabel(file)}: ${located(line)}`;
}
const isEmpty = (v: unknown) => v === null || (typeof v === "string" && v.trim() === "");

/**
 * `file: line N: field: message, got value`. A message written `expected …` (the schema's) becomes
 * an instruction when the value is missing or empty, since "got nothing" tells an editor less than
 * what to write.
 */
export function problem(file: string, field: string, message: string, got: unknown, line?: number): string {
  const what = message.startsWith("expected ") ? message.slice("expected ".length) : undefined;
  if (what !== undefined && field !== "(file)") {
    const key = field.replace(/^.*[.\]]/, "");
    if (got === undefined)
      return `${messageStart(file, line)}the ${field} is missing — add a line ${key}: with ${what}`;
    if (isEmpty(got)) return `${messageStart(file, line)}the ${field} is empty — write ${what}`;
  }
  return `${messageStart(file, line)}${field}: ${message}, got ${showValue(got)}`;
}

export function fieldPath(path: readonly PropertyKey[]): string {
  // An empty name ("": 1) is shown as written, not as nothing.
  const name = (key: PropertyKey) => (key === "" ? '""' : shortened(String(key)));
  return path.reduce<string>(
    (acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc ? `${acc}.${name(key)}` : name(key)),
    "",
  );
}
