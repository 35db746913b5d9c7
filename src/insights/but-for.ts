import { WORD_WEIGHT } from "./attribute.ts";
import type { AspectSpan } from "./readings.ts";
import { conditionDenies, hypothetical, WOULD, wouldAt } from "./wishes.ts";

/**
 * A condition "but for" something: "I'd go back if it wasn't for the price", "Would be five stars if
 * not for the parking", "If it weren't for Dr. Patel I'd still be on painkillers". What the
 * condition names is why the would-clause is not so: a fault when the would-clause praises, the
 * writer's rescue when it tells of a harm. polarity.ts reads the would-clause's side and gives the
 * opposite to what is named, and the condition's "not" turns nothing.
 */
export interface ButFor {
  /** The tokens the condition names, [from, to): "the price". */
  from: number;
  to: number;
  /** The would-clause, [from, to). */
  would: [number, number];
  /** The condition's negators ("wasn't", "not"), which deny nothing the writer asserts. */
  negators: number[];
}

const ENDS = new Set([",", ";", ":", ".", "!", "?", "—", "(", ")", "but", "and"]);

/** Where "for" stands after a "but for" opening at `i` ("if it wasn't for", "if not for"), with its negators; or -1. */
function forAfter(normals: readonly string[], i: number): [number, number[]] {
  const at = (k: number) => normals[i + k];
  if (at(1) === "not" && at(2) === "for") return [i + 2, [i + 1]];
  if (at(1) !== "it") return [-1, []];
  if ((at(2) === "was" || at(2) === "were") && at(3) === "not" && at(4) === "for") return [i + 4, [i + 3]];
  if (at(2) === "had" && at(3) === "not" && at(4) === "been" && at(5) === "for") return [i + 5, [i + 3]];
  return [-1, []];
}

/** The "but for" condition of the clause `start`…`end` with a would-clause before or after it, or undefined. */
export function butFor(normals: readonly string[], start: number, end: number): ButFor | undefined {
  for (let i = start; i < end; i++) {
    if (normals[i] !== "if") continue;
    const [f, negators] = forAfter(normals, i);
    if (f < 0) continue;
    let to = f + 1;
    while (to < end && !ENDS.has(normals[to] as string) && !WOULD.has(normals[to + 1] as string)) to++;
    const before = wouldAt(normals, i, start);
    if (before >= 0) return { from: f + 1, to, would: [before, i], negators };
    for (let k = to; k < Math.min(end, to + 4); k++) {
      if (WOULD.has(normals[k] as string)) return { from: f + 1, to, would: [to, end], negators };
    }
  }
  return undefined;
}

/**
 * The conditions of a clause read into its word values (in place): praise of what would be is none
 * (`hypothetical`), and a "but for" condition gives what it names the would-clause's side turned.
 * Returns whether the negator at a token is a condition's own, which turns nothing.
 */
export function readConditions(
  normals: readonly string[],
  start: number,
  end: number,
  mentions: readonly AspectSpan[],
  value: Float64Array,
  bound: Int32Array,
): (p: number) => boolean {
  const bf = butFor(normals, start, end);
  if (bf) {
    let side = 0;
    for (let k = bf.would[0]; k < bf.would[1]; k++) side += value[k - start] as number;
    value.fill(0, bf.would[0] - start, bf.would[1] - start);
    const named = mentions.find((m) => m.start >= bf.from && m.start < bf.to);
    // Nothing of a side before the condition ("Would be five stars if not for the parking") is
    // praise all the same: what would be so is better than what is.
    if (side === 0 && bf.would[0] < bf.from) side = 1;
    if (named && side !== 0) {
      value[named.start - start] = -Math.sign(side) * WORD_WEIGHT;
      bound[named.start - start] = named.aspect;
    }
  }
  const wouldBeIf = hypothetical(normals, start, end);
  value.fill(0, wouldBeIf[0] - start, wouldBeIf[1] - start);
  return (p) => conditionDenies(wouldBeIf, p) || (bf?.negators.includes(p) ?? false);
}
