import type { Clause } from "./nlp.ts";

/** How long something lasted, told in words: a count before a unit of time ("three weeks", "an hour"). */

const NUMBER_WORDS = new Map([
  ["a", 1],
  ["an", 1],
  ["one", 1],
  ["two", 2],
  ["three", 3],
  ["four", 4],
  ["five", 5],
  ["six", 6],
  ["ten", 10],
  ["fifteen", 15],
  ["twenty", 20],
  ["thirty", 30],
  ["forty", 40],
  ["forty-five", 45],
  ["fifty", 50],
  ["sixty", 60],
  ["ninety", 90],
  ["few", 3],
  ["couple", 2],
  ["several", 4],
  ["most", 3],
  ["half", 30],
]);
/** Words that may stand between a number and its unit: "two full weeks", "an extra hour". */
const BETWEEN = new Set(["full", "whole", "extra", "more", "long", "good", "of", "the", "nearly", "almost", "over"]);

/** Whether `n` may stand in a count of time: digits, a number word, or a word between ("two full"). */
export const countWord = (n: string) => /^\d+$/.test(n) || NUMBER_WORDS.has(n) || BETWEEN.has(n);

/** The number right before the unit at `i` ("three weeks", "most of the year"), or -1. */
export function numberBefore(normals: readonly string[], pos: readonly string[], i: number, from: number): number {
  for (let k = i - 1; k >= Math.max(from, i - 3); k--) {
    const n = normals[k] as string;
    if (/^\d+$/.test(n)) return Number(n);
    const w = NUMBER_WORDS.get(n);
    if (w !== undefined) return w;
    if (pos[k] === "NUM") return 2;
    if (!BETWEEN.has(n)) return -1;
  }
  return -1;
}

/** Stretches a good result may last and still be no result: hours, part of a day, a day or two. */
/** Units of a stretch of time: "three weeks out", "after six weeks". */
export const UNITS = new Set(["minute", "hour", "day", "week", "month", "year", "summer", "winter", "spring", "fall"]);
const BRIEF_UNITS = new Set(["hour", "day", "afternoon", "evening", "morning", "night"]);
const BRIEF_HEDGES = new Set(["about", "only", "maybe", "like", "just", "around", "roughly"]);

/**
 * Where a stretch that outlasts nothing starts ("for about a day", "for a few hours", "for two
 * days"), or -1: a result that lasted so long is relief that wore off. "For days" or "for weeks"
 * without a count is a result that lasts.
 */
export function briefStretch(clause: Clause): number {
  const { normals, lemmas, pos } = clause.tokens;
  for (let i = clause.start; i < clause.end - 1; i++) {
    if (normals[i] !== "for") continue;
    let k = i + 1;
    if (BRIEF_HEDGES.has(normals[k] as string)) k++;
    for (let u = k; u < Math.min(clause.end, k + 4); u++) {
      if (!BRIEF_UNITS.has(lemmas[u] as string)) continue;
      const n = numberBefore(normals, pos, u, k);
      const counted = n > 0 || normals[u - 1] === "an" || normals[u - 1] === "a" || normals[u - 1] === "the";
      if (counted && (lemmas[u] !== "day" || n <= 3)) return i;
      break;
    }
  }
  return -1;
}
