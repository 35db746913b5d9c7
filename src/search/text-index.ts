import { LRUCache } from "lru-cache";
import { type Bitset, bitsetOf, orInto, wordsFor } from "./bitset.ts";

/**
 * The substring filter: which reviews' normalised text contains a needle, with exactly the
 * semantics of `text.includes(needle)`, answered from a word index rather than by reading every
 * text.
 *
 * A text is cut into *words*, maximal runs of code units that are not separators (ASCII other
 * than `a-z`, `0-9`, `'` and `-`). Because the cut depends only on each code unit, every run of
 * word units in a needle lies inside one word of any text containing the needle. So:
 *
 * - a needle that is one run (a word or part of one: "massage", "ssag") is found in exactly the
 *   texts that have a word containing it: the union of those words' postings, no text read;
 * - a longer needle ("front desk", "dr. patel") is found only in texts that have, for each of its
 *   runs, a word containing it (a word ending with the first run, equal to a middle one, starting
 *   with the last); those candidates are then verified with `includes`.
 *
 * The word index is a few tens of bytes per distinct word per review (see docs/benchmarks.md for
 * the figure at 100,000 reviews). Results are remembered per needle, least recently used dropped
 * first, bounded by bytes, since a public search sees the same phrases again and again.
 */

/** Remembered results, in bytes: 16 MiB is about 1,300 needles at 100,000 reviews, 13,000 at 10,000. */
export const MATCH_MEMO_BYTES = 16 * 1024 * 1024;

/** A word whose postings are denser than one in 32 reviews is held as a bitset: smaller, and ORed a word at a time. */
type Postings = Int32Array | Bitset;

export interface TextIndex {
  /** The reviews whose text contains `needle` (already normalised, non-empty). Do not modify. */
  matches(needle: string): Bitset;
  /** Bytes held by the word index (postings and vocabulary), for the memory figure. */
  readonly indexBytes: number;
}

/** Separators: ASCII other than a-z, 0-9, ' and -. Everything else (including non-ASCII) is a word unit. */
const SEPARATOR = new Uint8Array(128).map((_, c) => {
  const ch = String.fromCharCode(c);
  return /[a-z0-9'-]/.test(ch) ? 0 : 1;
});
const isSeparator = (c: number) => c < 128 && SEPARATOR[c] === 1;

interface Run {
  text: string;
  /** A separator of the needle precedes / follows the run, so the word starts / ends there. */
  startsWord: boolean;
  endsWord: boolean;
}

/** Calls `fn` with each word of `s` (each occurrence), in order. */
function eachWord(s: string, fn: (word: string) => void): void {
  let start = -1;
  for (let i = 0; i <= s.length; i++) {
    const sep = i === s.length || isSeparator(s.charCodeAt(i));
    if (!sep && start < 0) start = i;
    else if (sep && start >= 0) {
      fn(s.slice(start, i));
      start = -1;
    }
  }
}

function runsOf(needle: string): Run[] {
  const runs: Run[] = [];
  let start = -1;
  for (let i = 0; i <= needle.length; i++) {
    const sep = i === needle.length || isSeparator(needle.charCodeAt(i));
    if (!sep && start < 0) start = i;
    else if (sep && start >= 0) {
      runs.push({ text: needle.slice(start, i), startsWord: start > 0, endsWord: i < needle.length });
      start = -1;
    }
  }
  return runs;
}

function orPostings(into: Bitset, p: Postings): void {
  if (p instanceof Uint32Array) {
    orInto(into, p);
    return;
  }
  for (let k = 0; k < p.length; k++) {
    const i = p[k] as number;
    into[i >>> 5] = (into[i >>> 5] as number) | (1 << (i & 31));
  }
}

export function createTextIndex(texts: readonly string[]): TextIndex {
  const n = texts.length;
  const lists = new Map<string, number[]>();
  texts.forEach((text, i) => {
    eachWord(text, (w) => {
      const l = lists.get(w);
      if (!l) lists.set(w, [i]);
      else if (l[l.length - 1] !== i) l.push(i); // a word twice in one text is listed once
    });
  });
  const dense = n / 32;
  const vocab: string[] = [];
  const postings: Postings[] = [];
  const byWord = new Map<string, Postings>();
  let indexBytes = 0;
  for (const [w, l] of lists) {
    const p = l.length > dense ? bitsetOf(n, l) : Int32Array.from(l);
    vocab.push(w);
    postings.push(p);
    byWord.set(w, p);
    indexBytes += p.byteLength + 2 * w.length + 64;
  }
  lists.clear();

  /** Reviews with a word that matches `run` as its position in the needle requires. */
  const runMatches = (run: Run): Bitset => {
    const out = new Uint32Array(wordsFor(n));
    const t = run.text;
    if (run.startsWord && run.endsWord) {
      const p = byWord.get(t);
      if (p) orPostings(out, p);
      return out;
    }
    const test = run.startsWord
      ? (w: string) => w.startsWith(t)
      : run.endsWord
        ? (w: string) => w.endsWith(t)
        : (w: string) => w.includes(t);
    for (let k = 0; k < vocab.length; k++) if (test(vocab[k] as string)) orPostings(out, postings[k] as Postings);
    return out;
  };

  const compute = (needle: string): Bitset => {
    const runs = runsOf(needle);
    const only = runs[0];
    // A needle that is a single run with no separator around it: the word postings are exact.
    if (runs.length === 1 && only && !only.startsWord && !only.endsWord) return runMatches(only);
    let candidates: Bitset | undefined;
    for (const run of runs) {
      const m = runMatches(run);
      if (candidates) for (let w = 0; w < m.length; w++) candidates[w] = (candidates[w] as number) & (m[w] as number);
      else candidates = m;
    }
    const out = new Uint32Array(wordsFor(n));
    const verify = (i: number) => {
      if ((texts[i] as string).includes(needle)) out[i >>> 5] = (out[i >>> 5] as number) | (1 << (i & 31));
    };
    if (!candidates) {
      for (let i = 0; i < n; i++) verify(i); // only separators, e.g. "!!": no word to narrow by
      return out;
    }
    for (let w = 0; w < candidates.length; w++) {
      let word = candidates[w] as number;
      while (word !== 0) {
        const low = word & -word;
        verify((w << 5) + 31 - Math.clz32(low));
        word ^= low;
      }
    }
    return out;
  };

  const memo = new LRUCache<string, Bitset>({
    maxSize: MATCH_MEMO_BYTES,
    sizeCalculation: (v, k) => v.byteLength + 2 * k.length + 96,
  });
  return {
    indexBytes,
    matches(needle) {
      let m = memo.get(needle);
      if (!m) {
        m = compute(needle);
        memo.set(needle, m);
      }
      return m;
    },
  };
}
