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
 * - a needle of two runs ("front desk", "dr. patel") is found in exactly the texts that have a
 *   pair of adjacent words, with what separates them, containing it (the separator run of the
 *   needle must then be the whole separator between the two words): the union of those pairs'
 *   postings, again without reading a text;
 * - any other needle (three runs or more, or one beginning or ending with a separator) is found
 *   only in texts that have every adjacent pair of its runs; those candidates are verified with
 *   `includes`.
 *
 * The index holds each distinct word and adjacent pair once per review that has it. Results are
 * remembered per needle, least recently used dropped first, bounded by bytes, since a public
 * search sees the same phrases again and again.
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
  /** Where the run starts and ends in the needle. */
  start: number;
  end: number;
  /** A separator of the needle precedes / follows the run, so the word starts / ends there. */
  startsWord: boolean;
  endsWord: boolean;
}

/** Calls `fn` with each word of `s` (each occurrence) and where it starts and ends, in order. */
function eachWord(s: string, fn: (word: string, start: number, end: number) => void): void {
  let start = -1;
  for (let i = 0; i <= s.length; i++) {
    const sep = i === s.length || isSeparator(s.charCodeAt(i));
    if (!sep && start < 0) start = i;
    else if (sep && start >= 0) {
      fn(s.slice(start, i), start, i);
      start = -1;
    }
  }
}

/** The runs of word units of a needle, and whether a separator of the needle bounds each. */
function runsOf(needle: string): Run[] {
  const runs: Run[] = [];
  eachWord(needle, (text, start, end) =>
    runs.push({ text, start, end, startsWord: start > 0, endsWord: end < needle.length }),
  );
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
  // Each pair of adjacent words with what separates them ("front desk", "dr. patel"), by first word.
  const pairLists = new Map<string, Map<string, number[]>>();
  const add = (m: Map<string, number[]>, key: string, i: number) => {
    const l = m.get(key);
    if (!l) m.set(key, [i]);
    else if (l[l.length - 1] !== i) l.push(i); // twice in one text is listed once
  };
  texts.forEach((text, i) => {
    let prev: string | undefined;
    let prevStart = 0;
    eachWord(text, (w, start, end) => {
      add(lists, w, i);
      if (prev !== undefined) {
        let follow = pairLists.get(prev);
        if (!follow) {
          follow = new Map();
          pairLists.set(prev, follow);
        }
        add(follow, text.slice(prevStart, end), i);
      }
      prev = w;
      prevStart = start;
    });
  });
  let indexBytes = 0;
  const toPostings = (l: number[]): Postings => {
    const p = l.length > n / 32 ? bitsetOf(n, l) : Int32Array.from(l);
    indexBytes += p.byteLength + 64;
    return p;
  };
  const vocab: string[] = [];
  const postings: Postings[] = [];
  const pairs: { spans: string[]; postings: Postings[] }[] = [];
  const wordIndex = new Map<string, number>();
  for (const [w, l] of lists) {
    wordIndex.set(w, vocab.length);
    vocab.push(w);
    postings.push(toPostings(l));
    const follow = [...(pairLists.get(w) ?? [])];
    pairs.push({ spans: follow.map(([span]) => span), postings: follow.map(([, pl]) => toPostings(pl)) });
    indexBytes += 2 * w.length + follow.reduce((sum, [span]) => sum + 2 * span.length + 16, 0);
  }
  lists.clear();
  pairLists.clear();

  /** Reviews where one of the words `firsts` is followed by a separator and a word that together contain `pair`. */
  const pairMatches = (firsts: readonly number[], pair: string): Bitset => {
    const out = new Uint32Array(wordsFor(n));
    for (const k of firsts) {
      const { spans, postings: ps } = pairs[k] as (typeof pairs)[number];
      for (let j = 0; j < spans.length; j++)
        if ((spans[j] as string).includes(pair)) orPostings(out, ps[j] as Postings);
    }
    return out;
  };

  /** Reviews with a word that matches `run` as its position in the needle requires. */
  const runMatches = (run: Run): Bitset => {
    const out = new Uint32Array(wordsFor(n));
    const t = run.text;
    if (run.startsWord && run.endsWord) {
      const k = wordIndex.get(t);
      if (k !== undefined) orPostings(out, postings[k] as Postings);
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
    // The needle begins and ends inside words: no separator of its own at either end.
    const bare = runs.length > 0 && !runs[0]?.startsWord && !runs[runs.length - 1]?.endsWord;
    let candidates: Bitset | undefined;
    if (runs.length === 1) {
      candidates = runMatches(runs[0] as Run);
      if (bare) return candidates; // one run: the word postings are exact
    }
    for (let i = 0; i + 1 < runs.length; i++) {
      const a = runs[i] as Run;
      const b = runs[i + 1] as Run;
      // The first word ends with the first run; a later run is a whole word.
      const at = wordIndex.get(a.text);
      const firsts: number[] = [];
      if (i > 0) {
        if (at !== undefined) firsts.push(at);
      } else for (let k = 0; k < vocab.length; k++) if ((vocab[k] as string).endsWith(a.text)) firsts.push(k);
      const m = pairMatches(firsts, needle.slice(a.start, b.end));
      if (candidates) for (let w = 0; w < m.length; w++) candidates[w] = (candidates[w] as number) & (m[w] as number);
      else candidates = m;
    }
    // Two runs and nothing around them: an adjacent pair contains the needle exactly when a text does.
    if (runs.length === 2 && bare) return candidates as Bitset;
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
