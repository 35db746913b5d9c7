/**
 * Which characters content may hold, and how a name or value is shown in a message so that it
 * cannot break the line it is printed on. Text that reaches strict JSON parsers (I-JSON, RFC 7493:
 * no lone surrogates), terminals (no control characters, so no escape sequences) and readers (no
 * bidirectional overrides that show text in another order than it is stored, no invisible
 * characters in a name) is refused where an editor can fix it: in the file, with its line.
 */

/** C0 and C1 controls and DEL, but not newline and tab, which text blocks use. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;
/** Bidirectional embeddings, overrides and isolates (the marks LRM/RLM stay allowed: RTL text needs them). */
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;
/** Tag characters, which are text only inside an emoji tag sequence (🏴 and tags up to U+E007F: a flag). */
const TAG = "[\\u{E0020}-\\u{E007E}]";
/**
 * Invisible characters that make two names that look alike differ, or a name that looks blank:
 * Unicode's default-ignorable characters (zero widths, the soft hyphen, invisible operators, tags,
 * fillers), and the blank braille pattern, which fonts draw as nothing too. What emoji and scripts
 * need stays allowed: a zero-width joiner between two pictographs (👨‍👩‍👧), a variation selector
 * after the character it varies (❤️), a flag's tag sequence, and the direction marks.
 */
const ZERO_WIDTH = new RegExp(
  [
    "[\\u00AD\\u034F\\u115F\\u1160\\u17B4\\u17B5\\u180E\\u200B\\u200C\\u2060-\\u206F\\u2800\\u3164\\uFEFF\\uFFA0\\uFFF0-\\uFFF8\\u{1BCA0}-\\u{1BCA3}\\u{1D173}-\\u{1D17A}\\u{E0000}-\\u{E001F}\\u{E0080}-\\u{E00FF}\\u{E01F0}-\\u{E0FFF}]",
    "(?<!\\p{Extended_Pictographic}\\uFE0F?)\\u200D|\\u200D(?!\\p{Extended_Pictographic})",
    "(?<=^|[\\s\\p{Default_Ignorable_Code_Point}])\\p{Variation_Selector}",
    `(?<!\\u{1F3F4}${TAG}*)${TAG}|${TAG}(?!${TAG}*\\u{E007F})|(?<!\\u{1F3F4}${TAG}+)\\u{E007F}`,
  ].join("|"),
  "u",
);
/** One pass that most text passes: any character the checks below could refuse (surrogates, paired or not). */
const SUSPECT =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uD800-\uDFFF\uFDD0-\uFDEF\uFFFE\uFFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/**
 * Unicode's noncharacters: U+FDD0–U+FDEF and the last two code points of each of the 17 planes.
 * I-JSON (RFC 7493 §2.1) forbids them in strings as it forbids surrogates.
 */
const NONCHARACTER = new RegExp(
  `[\\uFDD0-\\uFDEF${Array.from({ length: 17 }, (_, p) => `\\u{${p.toString(16)}FFFE}\\u{${p.toString(16)}FFFF}`).join("")}]`,
  "u",
);
const NONCHARACTERS = new RegExp(NONCHARACTER.source, "gu");
/** What breaks a line or jumps a column: allowed in a text block, not inside a one-line name or title. */
const LINE_BREAK = /[\t\n\u2028\u2029]/;

const NAMES: Record<number, string> = {
  0: "NUL",
  9: "CHARACTER TABULATION",
  10: "LINE FEED",
  7: "BEL, the terminal bell",
  8: "BS, backspace",
  11: "VT, vertical tab",
  12: "FF, form feed",
  13: "CR, carriage return",
  27: "ESC, which starts terminal escape sequences",
  127: "DEL",
  133: "NEL, next line",
  8232: "LINE SEPARATOR",
  8233: "PARAGRAPH SEPARATOR",
  8234: "LEFT-TO-RIGHT EMBEDDING",
  8235: "RIGHT-TO-LEFT EMBEDDING",
  8236: "POP DIRECTIONAL FORMATTING",
  8237: "LEFT-TO-RIGHT OVERRIDE",
  8238: "RIGHT-TO-LEFT OVERRIDE",
  8294: "LEFT-TO-RIGHT ISOLATE",
  8295: "RIGHT-TO-LEFT ISOLATE",
  8296: "FIRST STRONG ISOLATE",
  8297: "POP DIRECTIONAL ISOLATE",
  6158: "MONGOLIAN VOWEL SEPARATOR",
  8203: "ZERO WIDTH SPACE",
  8204: "ZERO WIDTH NON-JOINER",
  8205: "ZERO WIDTH JOINER",
  8288: "WORD JOINER",
  65279: "ZERO WIDTH NO-BREAK SPACE",
  173: "SOFT HYPHEN",
  847: "COMBINING GRAPHEME JOINER",
  4447: "HANGUL CHOSEONG FILLER",
  4448: "HANGUL JUNGSEONG FILLER",
  10240: "BRAILLE PATTERN BLANK",
  12644: "HANGUL FILLER",
  65440: "HALFWIDTH HANGUL FILLER",
  6068: "KHMER VOWEL INHERENT AQ",
  6069: "KHMER VOWEL INHERENT AA",
  8289: "FUNCTION APPLICATION",
  8290: "INVISIBLE TIMES",
  8291: "INVISIBLE SEPARATOR",
  8292: "INVISIBLE PLUS",
  65038: "VARIATION SELECTOR-15",
  65039: "VARIATION SELECTOR-16",
  // Spaces that are no space to YAML (yaml-mistakes.ts names them at the start of a line).
  160: "NO-BREAK SPACE",
  8194: "EN SPACE",
  8195: "EM SPACE",
  8201: "THIN SPACE",
  8239: "NARROW NO-BREAK SPACE",
  12288: "IDEOGRAPHIC SPACE",
};

/**
 * `s` cut to `max` characters (code points, never half of one), "..." in place of the rest: a
 * name a message repeats, which an editor may have pasted thousands of characters long.
 */
export function shortened(s: string, max = 60): string {
  if (s.length <= max) return s;
  const chars = [...s];
  return chars.length > max ? `${chars.slice(0, max - 3).join("")}...` : s;
}

const hex = (c: number) => c.toString(16).toUpperCase().padStart(4, "0");
/** `U+2003 EM SPACE`: a code point as messages name it, with its Unicode name when it is one of the above. */
export const named = (c: number) => `U+${hex(c)}${NAMES[c] ? ` ${NAMES[c]}` : ""}`;

/** What is wrong with one character class, and what to do about it. */
export interface CharacterProblem {
  /** 0-based offset of the first offending character in the text. */
  index: number;
  message: string;
}

const HOW = "delete it (it may be invisible: retype the words around it)";

/**
 * The first character of `s` that no content field may hold; with `names`, also the invisible
 * characters and the line breaks and tabs (but for those at either end, which are trimmed)
 * refused in an author or a title. Undefined when `s` is well-formed.
 */
export function badCharacter(s: string, opts: { names?: boolean } = {}): CharacterProblem | undefined {
  if (!SUSPECT.test(s) && !(opts.names && (ZERO_WIDTH.test(s) || LINE_BREAK.test(s.trim())))) return undefined;
  const lone = LONE_SURROGATE.exec(s);
  if (lone) {
    return {
      index: lone.index,
      message: `holds half of a character (a lone surrogate, \\u${hex(s.charCodeAt(lone.index)).toLowerCase()}), which strict JSON readers refuse — write the character itself, or remove the \\u escape`,
    };
  }
  const nonchar = NONCHARACTER.exec(s);
  if (nonchar) {
    return {
      index: nonchar.index,
      message: `holds a noncharacter (U+${hex(nonchar[0].codePointAt(0) as number)}), which is not text and which strict JSON readers refuse — ${HOW}`,
    };
  }
  const control = CONTROL.exec(s);
  if (control) {
    return {
      index: control.index,
      message: `holds a control character (${named(s.charCodeAt(control.index))}) — ${HOW}`,
    };
  }
  const bidi = BIDI.exec(s);
  if (bidi) {
    return {
      index: bidi.index,
      message: `holds a bidirectional-text control (${named(s.charCodeAt(bidi.index))}), which shows text in another order than it is written — ${HOW}`,
    };
  }
  const inner = opts.names ? LINE_BREAK.exec(s.trim()) : null;
  if (inner) {
    const index = s.length - s.trimStart().length + inner.index;
    return {
      index,
      message: `holds a line break or a tab (${named(s.charCodeAt(index))}) — a name or a title is shown on one line: write it on one line, with a space where the break is`,
    };
  }
  const zero = opts.names ? ZERO_WIDTH.exec(s) : null;
  if (zero) {
    return {
      index: zero.index,
      message: `holds an invisible character (${named(s.codePointAt(zero.index) as number)}), which makes a name differ from one that looks the same — ${HOW}`,
    };
  }
  return undefined;
}

/**
 * Characters a message never prints as they are: controls (newline included, so a value cannot
 * start a line), bidirectional controls, invisible characters (blank-drawn ones too), line and paragraph separators,
 * lone surrogates and the BMP's noncharacters (the other planes' are surrogate pairs, printed as
 * they are: a terminal shows them as any unknown character).
 */
const UNPRINTABLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
  /\u034F|[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\u2800\u3164\uFEFF\uFFA0\uFFF0-\uFFF8\uFDD0-\uFDEF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const escaped = (c: string) => `\\u${hex(c.charCodeAt(0)).toLowerCase()}`;

/** `s` as a JSON string whose every unprintable character is a `\uXXXX` escape: safe on one line. */
export function quoteValue(s: string): string {
  return JSON.stringify(s).replace(UNPRINTABLE, escaped);
}

/** A path of the characters paths usually have is shown as it is; any other is quoted (`quoteValue`). */
const PLAIN_PATH = /^[\p{L}\p{M}\p{N}._/@+=,~-]+$/u;

/** How a message names a file: as it is when plain, JSON-quoted when it holds anything else. */
export function fileLabel(file: string): string {
  return PLAIN_PATH.test(file) && !file.startsWith("-") ? file : quoteValue(file);
}

/**
 * A whole message line made safe to print: every unprintable character escaped as `\uXXXX`. The
 * last guard before a terminal, a CI log or the notice page, whatever built the line.
 */
export function printableLine(line: string): string {
  return line.replace(UNPRINTABLE, escaped);
}

/**
 * The first character of `text` (a file's raw text) that is refused wherever it stands, with its
 * 1-based line: a control character other than tab and line breaks, a lone surrogate or a
 * bidirectional control. Checked before the YAML is read, so the message names the line even
 * when the YAML reader would stop at the character with its own words. `message` reads after
 * what holds it: "holds a control character (…) — …".
 */
export function badCharacterLine(text: string): { line: number; message: string } | undefined {
  // CR is a line break only before LF (a file saved on Windows).
  const found = badCharacter(text.replace(/\r\n/g, " \n"));
  if (!found) return undefined;
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < found.index; i = text.indexOf("\n", i + 1)) line++;
  if (text[found.index] === "\r") {
    return {
      line,
      message:
        "holds a carriage return (U+000D CR) with no line feed after it, the line ending of old Mac files, which ends no line here — save the file with LF (or Windows' CR LF) line endings, or delete the character if it is a stray",
    };
  }
  return { line, message: found.message };
}

/** Whether `s` is a string I-JSON (RFC 7493 §2.1) allows: no lone surrogate, no noncharacter. */
export function isIJsonText(s: string): boolean {
  return s.isWellFormed() && !NONCHARACTER.test(s);
}

/**
 * `s` with every lone surrogate and noncharacter replaced by U+FFFD, as a request's invalid UTF-8
 * already is: for echoing a value a client sent back in a JSON body that I-JSON readers accept.
 */
function ijsonText(s: string): string {
  const whole = s.toWellFormed();
  return NONCHARACTER.test(whole) ? whole.replace(NONCHARACTERS, "\uFFFD") : whole;
}

/** `v` (a value a client sent, as parsed JSON or query parameters) with `ijsonText` applied to every string and key. */
export function ijsonValue(v: unknown): unknown {
  if (typeof v === "string") return ijsonText(v);
  if (Array.isArray(v)) return v.map(ijsonValue);
  if (typeof v !== "object" || v === null) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [ijsonText(k), ijsonValue(x)]));
}
