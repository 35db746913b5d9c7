import type { TokenTable } from "./nlp.ts";

/**
 * What a practitioner prescribed, told apart from what a patient praises: "I'd recommend Dr. Amy" is
 * praise, "he recommended three visits a week" a plan, neither good nor bad by itself; a plan laid out
 * "before any exam" or "before he had even seen my X-rays" is care that did not look first.
 */

/** Verbs of advice whose lexicon praise is the patient's own recommendation. */
const ADVISE = new Set(["recommend", "suggest", "advise", "prescribe"]);
/** Before the verb, words that make it the patient's own recommendation: "I'd highly recommend". */
const OWN = new Set(["i", "we", "would", "'d", "highly", "definitely", "totally", "will", "'ll", "can", "ca", "could"]);
/** What may stand before the patient's own "recommend" with no subject: "Strongly recommend", "10/10, recommend". */
const BARE = new Set(["ADV", "PUNCT", "INTJ", "CCONJ", "NUM", "SYM"]);
/** What a plan is made of: "three visits a week", "a 24-visit package", "weekly sessions for a year". */
const PLAN = new Set(
  (
    "visit visits session sessions appointment appointments plan plans package packages program week weeks " +
    "weekly month months year twice adjustment adjustments treatment treatments x-ray x-rays xray xrays mri " +
    "scan scans deposit contract"
  ).split(" "),
);
/** What the patient is prescribed besides a plan: "he recommended a pillow", "suggested ice". */
const PRESCRIBED = new Set(
  "stretch stretches stretching routine exercise exercises pillow supplement supplements orthotic orthotics ice heat brace rest surgery specialist".split(
    " ",
  ),
);
/** How far after the verb its object may name the plan: "recommended coming in twice a week". */
const OBJECT_REACH = 4;

/**
 * Whether the advice verb at `i` prescribes ("Dr. Lee recommended twice-weekly visits", "he suggested I
 * come back Friday") rather than recommends the practice: its object is a plan, a number of visits or
 * a thing to do, or a patient told what to do ("recommended I…"), and the patient is not the one
 * recommending ("I'd recommend the adjustments to anyone" stays praise).
 */
export function prescribes({ normals, lemmas, pos }: TokenTable, i: number, start: number, end: number): boolean {
  if (!ADVISE.has(lemmas[i] as string)) return false;
  if (normals.slice(Math.max(start, i - 3), i).some((w) => OWN.has(w))) return false;
  // "Strongly recommend the 12-visit package.": in the present with no subject before it, the
  // patient's own word; "the doctors here recommend weekly visits" is still a plan.
  if (normals[i] === "recommend" && pos.slice(start, i).every((p) => BARE.has(p as string))) return false;
  const next = normals[i + 1];
  if (next === "i" || next === "that" || next === "we") return i + 1 < end;
  for (let j = i + 1; j < Math.min(end, i + 1 + OBJECT_REACH); j++) {
    const w = normals[j] as string;
    if (/^\d/.test(w) || PLAN.has(w) || PRESCRIBED.has(lemmas[j] as string) || PRESCRIBED.has(w)) return true;
  }
  return false;
}

/** After "before", what a practitioner does to look first: "before any exam", "before even seeing my X-rays". */
const LOOKS = new Set(
  (
    "exam exams examination examined examining examine x-ray x-rays xray xrays seen seeing saw see " +
    "evaluation evaluating evaluated assessment assessed assessing diagnosis diagnosed asked asking ask " +
    "looked looking look touched touching"
  ).split(" "),
);
/** What "before" may pass over to reach the look: "before he had even properly examined". */
const BETWEEN = new Set(
  "he she they the doctor dr chiropractor had has even any a an one real proper properly single my me".split(" "),
);
/** Words of a plan laid before the patient to take: "mapped out twenty-four sessions and asked me to commit". */
const LAID_OUT = new Set(
  "visits sessions appointments plan package packages program weekly weeks months year commit sign prepay deposit contract".split(
    " ",
  ),
);
/** What "seeing" must see to be the practitioner's look: "before even seeing my x-rays", not "seeing results". */
const SEEN = new Set(["me", "x", "x-ray", "x-rays", "xray", "xrays", "scans", "mri", "imaging", "films"]);
const SEE = new Set(["see", "seen", "seeing", "saw"]);

/**
 * The index of "before" in a clause that lays out a plan before the practitioner has looked ("a
 * 36-visit plan before even seeing my x-rays", "a plan printed for me to sign before any exam"), or -1.
 * "He stretched me before the adjustment" and "I had X-rays before my first visit" lay out no plan.
 */
export function planBeforeLooking({ normals, lemmas }: TokenTable, start: number, end: number): number {
  // "They went over payment plans before the exam": how to pay, not a plan of care.
  const laidOut = (k: number) =>
    (LAID_OUT.has(normals[k] as string) || LAID_OUT.has(lemmas[k] as string)) && normals[k - 1] !== "payment";
  let first = start;
  while (first < end && !laidOut(first)) first++;
  if (first >= end) return -1;
  for (let i = start; i < end; i++) {
    if (normals[i] !== "before") continue;
    let j = i + 1;
    while (j < end && BETWEEN.has(normals[j] as string)) j++;
    // "before the adjustment": the look must be the practitioner's, not a treatment step.
    const look = normals[j] as string;
    if (j >= end || j - i > 6 || !LOOKS.has(look)) continue;
    // "Before the exam she asked about my goals and we built the plan": a look came before the plan.
    let laid = j + 1;
    while (laid < end && !laidOut(laid)) laid++;
    if (laid < end && normals.slice(j + 1, laid).some((w) => LOOKS.has(w))) continue;
    if (!SEE.has(look) || normals.slice(j + 1, j + 3).some((w) => SEEN.has(w))) return i;
  }
  return -1;
}

/** Before "anyway", what the patient said against it: "I asked him not to", "I told him my neck was off-limits". */
const OBJECTED = new Set(
  (
    "said told asked mentioned explaining explained preferred begged warned refused objected scared nervous " +
    "afraid off-limits not"
  ).split(" "),
);
/** Objections spoken, not only felt: "I told him", "I asked him not to". */
const SPOKEN = new Set("said told asked mentioned explaining explained begged warned refused objected".split(" "));
/** What a practitioner does to the body: "he twisted it anyway", "did the same hard thrust anyway". */
const HANDLED = new Set("twist crack adjust manipulate thrust pop do go press push yank roll lie force".split(" "));
/** How far back in its sentence the objection may stand: "Even after I said I preferred no neck manipulation, he…". */
const OBJECTION_REACH = 25;

/**
 * The index of "anyway" in a clause where the practitioner handled the patient after the patient
 * objected ("I asked him to skip the neck crack and he did it anyway"), or -1. "They got me in anyway"
 * and "she found a way to position me comfortably anyway" follow no objection.
 */
export function handledAnyway({ normals, lemmas, pos }: TokenTable, start: number, end: number): number {
  let at = start;
  while (at < end && normals[at] !== "anyway") at++;
  const verb = lemmas.slice(start, at).findIndex((l) => HANDLED.has(l)) + start;
  if (at === end || verb < start) return -1;
  // "I was nervous but I went anyway": the patient's own act, whatever they felt before it.
  let k = verb - 1;
  while (k >= start && (pos[k] === "AUX" || pos[k] === "ADV")) k--;
  if (normals[k] === "i" || normals[k] === "we") return -1;
  // "I was not sure about it but did it anyway": with no subject of its own, the patient's feeling
  // goes on to the patient's act; a spoken objection ("when I said I was nervous") is the other's.
  const elided = pos.slice(start, verb).every((p) => p === "CCONJ" || p === "ADV" || p === "PUNCT");
  const objections: string[] = [];
  for (let k = start - 1; k >= Math.max(0, start - OBJECTION_REACH); k--) {
    const n = normals[k] as string;
    if (n === "." || n === "!" || n === "?") break;
    if (OBJECTED.has(n)) objections.push(n);
  }
  // Within the clause itself: "he laughed when i said i was scared of neck cracks and did it anyway".
  objections.push(...normals.slice(start, at).filter((n) => OBJECTED.has(n)));
  if (objections.length === 0 || (elided && !objections.some((n) => SPOKEN.has(n)))) return -1;
  return at;
}
