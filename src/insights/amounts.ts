import type { TokenTable } from "./nlp.ts";

/**
 * A change of amount told of a condition ("went from every day to roughly weekly", "from a 3 to an
 * 8"): its frequency or severity, or what the patient gains back (range of motion, sleep).
 */

/** How often or how much, per week where it is a frequency: "every day" 7, "weekly" 1, "a 9" 9. */
const AMOUNTS = new Map([
  ["daily", 7],
  ["nightly", 7],
  ["constant", 50],
  ["constantly", 50],
  ["weekly", 1],
  ["monthly", 0.25],
  ["rarely", 0.1],
  ["never", 0],
  ["none", 0],
  ["zero", 0],
  ["nothing", 0],
  ["once", 1],
  ["twice", 2],
  ["one", 1],
  ["two", 2],
  ["three", 3],
  ["four", 4],
  ["five", 5],
  ["six", 6],
  ["seven", 7],
  ["eight", 8],
  ["nine", 9],
  ["ten", 10],
]);
/** Verbs a change of amount is told with: "went from daily to weekly", "dropped from an 8 to a 2". */
const CHANGED = new Set([
  "go",
  "drop",
  "come",
  "fall",
  "reduce",
  "cut",
  "decrease",
  "shrink",
  "move",
  "get",
  "take",
  "bring",
]);
/** What a change of amount may be told of that is a price: "the bill went from $40 to $90". */
const PRICED = new Set("bill price cost copay co-pay fee rate charge deductible".split(" "));
const CURRENCY = new Set(["$", "£", "€", "dollars", "bucks"]);
/** Words of the symptom itself, less of which is better whatever else the clause names. */
const SYMPTOMS = new Set("pain ache hurt stiffness numbness tingling soreness discomfort spasm spasms".split(" "));
/** What a patient gains back, more of which is better: "range of motion", "mobility", "sleeping". */
const GAINED = new Set("range motion rotation mobility flexibility movement sleep energy walk strength".split(" "));
/** How far after "from" or "to" the amount may stand: "to maybe one", "from pretty much every day". */
const AMOUNT_REACH = 4;

/** The amount told from `i` on ("every day", "4 a week", "maybe one", "a 9"), or -1. */
function amountAt(normals: readonly string[], i: number, end: number): number {
  for (let k = i; k < Math.min(end, i + AMOUNT_REACH); k++) {
    const n = normals[k] as string;
    if (n === "every" || n === "each") return normals[k + 1] === "week" ? 1 : normals[k + 1] === "month" ? 0.25 : 7;
    if (n === "all" && normals[k + 1] === "the" && normals[k + 2] === "time") return 50;
    if (/^\d+(?:\.\d+)?(?:\/10)?$/.test(n)) return Number.parseFloat(n); // "a 3", "8/10"
    const word = AMOUNTS.get(n);
    if (word !== undefined) return word;
    if (n === "to" || n === "from") return -1;
  }
  return -1;
}

/**
 * The side of a change of amount told from `at` ("went from every day to roughly weekly": +1, "from a
 * 3 to an 8": -1), a condition's frequency or severity, and where its "to" stands; 0 when `at` starts
 * none. Said of a condition (polarity.ts binds it), less is a good result.
 */
export function amountChange(
  { normals, lemmas }: TokenTable,
  at: number,
  start: number,
  end: number,
): [side: number, to: number] {
  const none: [number, number] = [0, at];
  if (normals[at] !== "from" || !lemmas.slice(Math.max(start, at - 5), at).some((l) => CHANGED.has(l))) return none;
  const before = amountAt(normals, at + 1, end);
  if (before < 0) return none;
  let to = at + 1;
  // "from a seven out of ten down to a two": the scale and the direction may stand between.
  while (to < end && to <= at + 3 + AMOUNT_REACH && normals[to] !== "to") to++;
  if (normals[to] !== "to") return none;
  const after = amountAt(normals, to + 1, end);
  if (after < 0 || after === before) return none;
  // "The bill went from $40 to $90", "got the price down from 120 to 90": a price changed, not the condition.
  // Only just before "from": "fees took my back from a seven to a two" is the back's change.
  const priced = lemmas.slice(Math.max(start, at - 3), at).some((l) => PRICED.has(l));
  if (priced || normals.slice(at, to + 2).some((w) => CURRENCY.has(w))) return none;
  // "My range of motion went from a 3 to a 9", "went from sleeping 3 hours to 7": more of what the
  // patient gains back is the good result.
  // "my back pain when I walk went from an 8 to a 2" still tells the symptom.
  const told = lemmas.slice(start, at);
  const gained =
    (told.some((l) => GAINED.has(l)) || GAINED.has(lemmas[at + 1] as string)) && !told.some((l) => SYMPTOMS.has(l));
  return [(after < before ? 1 : -1) * (gained ? -1 : 1), to];
}
