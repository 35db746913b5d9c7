import { NEGATORS } from "./negation.ts";

/**
 * Where a sentence is cut into clauses: at a contrast ("…, but the billing was a mess"), after an
 * opening one's comma ("Although X, Y"), and before an unpunctuated wish ("…way better just wish…").
 * Each clause is read on its own (polarity.ts); the rules over a sentence's clauses are clause-rules.ts.
 */

/** Words that join two clauses of opposite polarity: "Dr. Patel was great but billing was a mess". */
const CONTRASTIVE = new Set(["but", "however", "although", "though", "whereas", "yet"]);
/** Of those, the ones that can open a sentence and contrast its two halves: "Although X, Y". */
const OPENING_CONTRASTIVE = new Set(["although", "though", "whereas", "even"]);
/** "anything but friendly" and "nothing but praise" are one thought, not a contrast. */
const NOT_BEFORE_BUT = new Set(["anything", "nothing", "all", "only"]);

/**
 * Is the word at `i` a contrastive conjunction? "yet" only after a comma or "and" ("not yet" is
 * not a contrast), "even" only as "even though", "but" not after "anything"/"nothing".
 */
function contrastAt(normals: readonly string[], i: number): boolean {
  const w = normals[i] as string;
  const prev = normals[i - 1];
  if (w === "even") return normals[i + 1] === "though";
  if (!CONTRASTIVE.has(w)) return false;
  if (w === "yet") return prev === "," || prev === "and";
  if (w === "but") return !NOT_BEFORE_BUT.has(prev as string);
  // "even though" is cut at "even".
  if (w === "though") return prev !== "even";
  return true;
}

/** Of the contrastive conjunctions, those that yield a point rather than make one: "although X, Y". */
const CONCEDING = new Set(["although", "though", "whereas"]);

/**
 * How a clause that starts at token `start`, as `clauseRanges` cut it, opens: "turn" after "but",
 * "however" or "yet" (the clause the sentence turns to), "concession" after "although", "though",
 * "even though" or "whereas" (the clause it grants).
 */
export function contrastOpening(normals: readonly string[], start: number): "turn" | "concession" | undefined {
  const w = normals[start] as string;
  if (w === "even") return normals[start + 1] === "though" ? "concession" : undefined;
  if (!CONTRASTIVE.has(w)) return undefined;
  return CONCEDING.has(w) ? "concession" : "turn";
}

const BEFORE_WISH = new Set(["just", "only", "really", "also", "do"]);
/** A wish these govern is theirs: "wouldn't wish it on anyone", "you could wish for". */
const GOVERNS_WISH = new Set(["could", "can", "would", "should", "will", "might", "may"]);
/**
 * Does a wish start a new thought at `i`, unpunctuated? "neck feels way better just wish it wasnt so
 * hard to get an appt": "(i) (just) wish" after anything but "and", a contrast that already cut, a
 * negator or a modal.
 */
function wishOpensAt(normals: readonly string[], i: number): boolean {
  let j = i;
  if (normals[j] === "i") j++;
  if (BEFORE_WISH.has(normals[j] as string)) j++;
  if (normals[j] !== "wish") return false;
  const prev = normals[i - 1] as string;
  const governed = NEGATORS.has(prev) || GOVERNS_WISH.has(prev);
  return prev !== "i" && prev !== "and" && !BEFORE_WISH.has(prev) && !CONTRASTIVE.has(prev) && !governed;
}

/** What the writer may turn to this practice after: "…, while here…", "…; this one listened". */
const BEFORE_HERE = new Set([",", ";", "and", "while", "whereas"]);
/** "this one", "this place": the practice the review is of, set against another. */
const THIS_ONE = new Set(["one", "place", "clinic", "office", "practice", "guy", "doctor", "chiropractor", "chiro"]);

/** Words that name another practice before the turn: "my old clinic", "the last place". */
const ANOTHER = new Set(["old", "last", "previous", "former", "other", "another"]);

/**
 * Where a sentence that named another practice turns to this one: "My old clinic emailed receipts
 * the same day, while here I had to ask three times" is two clauses, the first about another
 * clinic, the second about this one. -1 when it does not ("If not for the wait, this place…").
 */
function turnAt(normals: readonly string[], begin: number, i: number): number {
  const prev = normals[i - 1] as string;
  const here = normals[i] === "here" || (normals[i] === "this" && THIS_ONE.has(normals[i + 1] as string));
  if (!here || !BEFORE_HERE.has(prev) || !normals.slice(begin, i).some((n) => ANOTHER.has(n))) return -1;
  return prev === "and" || prev === "while" || prev === "whereas" ? i - 1 : i;
}

/**
 * Token ranges `[start, end)` of the clauses of the sentence spanning tokens `[begin, end)`. A
 * contrastive conjunction (but, however, although, though, even though, whereas, ", yet") starts a
 * new clause (the conjunction belongs to the clause it introduces); a sentence that opens with
 * although/though/even though/whereas is cut after its first comma instead. A piece with no word
 * besides its conjunction is merged into the clause before it ("…, but." stays whole).
 */
export function clauseRanges(
  normals: readonly string[],
  types: readonly string[],
  begin = 0,
  end = normals.length,
): [number, number][] {
  let firstWord = -1;
  const cuts: number[] = [];
  for (let i = begin; i < end; i++) {
    if (types[i] !== "word") continue;
    if (firstWord < 0) firstWord = i;
    else if (contrastAt(normals, i) || wishOpensAt(normals, i)) cuts.push(i);
    else {
      const turn = turnAt(normals, begin, i);
      if (turn > firstWord && turn !== cuts[cuts.length - 1]) cuts.push(turn);
    }
  }
  if (firstWord >= 0 && OPENING_CONTRASTIVE.has(normals[firstWord] as string)) {
    if (normals[firstWord] !== "even" || normals[firstWord + 1] === "though") {
      const comma = normals.indexOf(",", firstWord);
      while (cuts.length > 0 && (cuts[0] as number) <= firstWord + 1) cuts.shift();
      if (comma > 0 && comma < end - 1 && (cuts.length === 0 || comma < (cuts[0] as number))) cuts.unshift(comma + 1);
    }
  }
  if (cuts.length === 0) return [[begin, end]];
  const ranges: [number, number][] = [];
  let start = begin;
  for (const cut of [...cuts, end]) {
    // The conjunction that opens a clause does not count: "…, but." is not a clause of its own.
    let hasWord = false;
    for (let i = start; i < cut && !hasWord; i++) {
      hasWord = types[i] === "word" && !(i === start && CONTRASTIVE.has(normals[i] as string));
    }
    // Every cut lies after the first word, so the first range always has one and the merge is safe.
    if (hasWord || ranges.length === 0) ranges.push([start, cut]);
    else (ranges[ranges.length - 1] as [number, number])[1] = cut;
    start = cut;
  }
  return ranges;
}
