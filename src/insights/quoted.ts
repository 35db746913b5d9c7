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

const cache = new WeakMap<TokenTable, Uint8Array>();

/** 1 for each token of `tokens` inside a pair of quotation marks, the marks themselves excluded. */
export function quotedTokens(tokens: TokenTable): Uint8Array {
  let quoted = cache.get(tokens);
  if (quoted) return quoted;
  const { normals } = tokens;
  quoted = new Uint8Array(normals.length);
  for (let i = 0; i < normals.length; i++) {
    if (!OPENERS.has(normals[i] as string)) continue;
    const last = Math.min(normals.length - 1, i + MAX_QUOTED + 1);
    let close = -1;
    for (let j = i + 1; j <= last && close < 0; j++) if (CLOSERS.has(normals[j] as string)) close = j;
    if (close < 0) continue;
    // A whole text in quotation marks (a title, a short review pasted in quotes) is the writer's own.
    const whole = i === 0 && normals.slice(close + 1).every((n) => PUNCTUATION.test(n));
    if (!whole) quoted.fill(1, i + 1, close);
    i = close;
  }
  cache.set(tokens, quoted);
  return quoted;
}
