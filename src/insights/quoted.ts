import type { TokenTable } from "./nlp.ts";

/**
 * Words in quotation marks are someone else's, or the writer's mockery of them: "he keeps saying
 * it's "normal healing"", "a "free consultation" that cost $90". The writer does not vouch for an
 * opinion word inside them, so it is no evidence of the writer's own (polarity.ts).
 */

/** A quotation longer than this many tokens is taken for a stray mark, not a quote. */
const MAX_QUOTED = 12;
const OPENERS = new Set(['"', "“"]);
const CLOSERS = new Set(['"', "”"]);
const PUNCTUATION = /^[.!?…]+$/;
const SENTENCE_END = new Set([".", "!", "?"]);

const cache = new WeakMap<TokenTable, Uint8Array>();

/** 1 for each token of `tokens` inside a pair of quotation marks, the marks themselves excluded. */
export function quotedTokens(tokens: TokenTable): Uint8Array {
  let quoted = cache.get(tokens);
  if (quoted) return quoted;
  const { normals } = tokens;
  quoted = new Uint8Array(normals.length);
  for (let i = 0; i < normals.length; i++) {
    if (!OPENERS.has(normals[i] as string)) continue;
    const close = closerOf(normals, i);
    if (close < 0) continue;
    // A whole text in quotation marks (a title, a short review pasted in quotes) is the writer's own.
    const whole = i === 0 && normals.slice(close + 1).every((n) => PUNCTUATION.test(n));
    if (!whole && close - i - 1 <= MAX_QUOTED) quoted.fill(1, i + 1, close);
    // A pair too far apart is used up all the same: its closing mark opening a quotation would take
    // the writer's own words up to the next quote for someone else's.
    i = close;
  }
  cache.set(tokens, quoted);
  return quoted;
}

/**
 * The mark closing the quotation opened at `open`, or -1. A quotation ends in its sentence: past a
 * sentence's end not followed by a mark, a mark is another quotation's (`5'10"`, then `"free"`).
 */
function closerOf(normals: readonly string[], open: number): number {
  for (let j = open + 1; j < normals.length; j++) {
    if (CLOSERS.has(normals[j] as string)) return j;
    if (!SENTENCE_END.has(normals[j] as string)) continue;
    let next = j + 1;
    while (next < normals.length && PUNCTUATION.test(normals[next] as string)) next++;
    if (!CLOSERS.has(normals[next] as string)) return -1;
  }
  return -1;
}
