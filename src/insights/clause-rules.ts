import type { Constructions } from "./constructions.ts";
import type { Clause } from "./nlp.ts";
import { type AspectReading, type AspectSpan, putReading } from "./readings.ts";
import { updatePromised } from "./update-promised.ts";
import { praisingWish } from "./wishes.ts";

/**
 * Rules over the clauses of one sentence, applied to their readings after each clause is read on
 * its own (annotate.ts). Each rewrites `readings` in place.
 */

/** Score of a clause that says a fear did not come true ("…, but it never did"). */
const UNREALISED_SCORE = 0.5;
/** Score of an unjudged clause read from its contrast: clearly polar, weaker than a word of its own. */
const CONTRAST_SCORE = 0.3;
const NEGATIONS = new Set(["not", "never", "no", "nothing", "none", "neither"]);

const sumOf = (found: readonly AspectReading[]) => found.reduce((n, r) => n + (r.polar ? r.score : 0), 0);

/**
 * "I expected the adjustment to hurt, yet it never did", "I was afraid I'd wait forever, but I was
 * seen at once": a clause that voices an expectation, followed in its sentence by a contrast, tells
 * what did not happen, so it counts for nothing. The contrast tells what did: with an opinion of its
 * own it counts as read; a bare negation ("but it didn't") says the opposite of the expectation (a
 * fear, when the expectation had no polar word of its own), about the aspects the expectation named;
 * so does, more weakly, a contrast that only states a fact ("but there are four spaces out back").
 * Returns the expectations' clauses, which no model may read an aspect into.
 */
export function expectationContrast(
  clauses: readonly Clause[],
  readings: AspectReading[][],
  spansOfClause: readonly AspectSpan[][],
  shapes: Constructions,
): Set<number> {
  const voided = new Set<number>();
  for (let k = 0; k + 1 < clauses.length; k++) {
    const clause = clauses[k] as Clause;
    const next = clauses[k + 1] as Clause;
    if (next.sentenceIndex !== clause.sentenceIndex || !shapes.expects(clause)) continue;
    // A fear or a hope says the side of what was expected; else its aspects' reading does, else a fear.
    const expected = shapes.expectedSide(clause) || Math.sign(sumOf(readings[k] as AspectReading[])) || -1;
    readings[k] = [];
    voided.add(k);
    const after = readings[k + 1] as AspectReading[];
    if (after.some((r) => r.polar)) continue;
    const at = next.tokens.normals.slice(next.start, next.end).findIndex((n) => NEGATIONS.has(n));
    const aspects = new Set([...after.map((r) => r.aspect), ...(spansOfClause[k] ?? []).map((m) => m.aspect)]);
    if (at < 0) {
      // "I was worried about parking, but there are four spaces out back": a plain fact set against
      // a fear answers it, weaker than a word of its own, about what was feared (the office that
      // has the spaces is no judgement of the office).
      const feared = new Set((spansOfClause[k] ?? []).map((m) => m.aspect));
      readings[k + 1] = [...(feared.size > 0 ? feared : aspects)]
        .sort((a, b) => a - b)
        .map((aspect) => ({ aspect, score: -expected * CONTRAST_SCORE, polar: true, inferred: true, words: [] }));
      continue;
    }
    const word = `${next.tokens.values[next.start + at]}${expected < 0 ? "+" : "-"}`;
    readings[k + 1] = [...aspects]
      .sort((a, b) => a - b)
      .map((aspect) => ({ aspect, score: -expected * UNREALISED_SCORE, polar: true, absent: true, words: [word] }));
    // The expectation is what names the treatment: "I was afraid the adjustment would hurt, but…".
    if (shapes.treats(clause)) treatmentCare(next, readings[k + 1] as AspectReading[], shapes, true);
  }
  return voided;
}

/**
 * "The adjustment didn't hurt at all", "nothing he did hurt": a treatment (or a practitioner, when
 * `named`) during which a symptom was absent speaks for the practitioner's care as well as the
 * result. Adds the care reading (same score) to `found`, or credits it to the care already there.
 */
export function treatmentCare(clause: Clause, found: AspectReading[], shapes: Constructions, named = false): void {
  const care = shapes.treatmentAspect;
  if (care < 0 || found.some((r) => r.aspect === care && r.polar)) return;
  const painless = found.find((r) => r.absent && r.score > 0);
  if (!painless || !(named || shapes.treats(clause))) return;
  putReading(found, { ...painless, aspect: care });
}

/**
 * "Threw my back out hauling a couch up the stairs and could barely get into the car": a clause that
 * tells what the patient's body could or could not do is about the patient, not about the places or
 * things it names in passing: those aspects, without an opinion of their own, are dropped.
 */
export function abilityFocus(found: AspectReading[], shapes: Constructions): AspectReading[] {
  return found.filter((r) => r.aspect === shapes.abilityAspect || r.polar);
}

/**
 * "Parking is tight, but Dr. Kim is worth it", "The building is old, but Dr. Patel is excellent":
 * clauses are cut at contrastive conjunctions, so a clause that names an aspect by its own terms
 * without a polar word, in a sentence whose nearest other clause is polar, says the opposite of
 * that clause. Rewrites `readings` in place.
 */
export function contrastUnjudged(
  clauses: readonly Clause[],
  readings: AspectReading[][],
  named: (clause: number, aspect: number) => boolean,
): void {
  const sign = readings.map((found) => Math.sign(sumOf(found)));
  readings.forEach((found, k) => {
    if (found.length === 0 || found.some((r) => r.polar || !named(k, r.aspect))) return;
    const sentence = (clauses[k] as Clause).sentenceIndex;
    for (let d = 1; d < clauses.length; d++) {
      for (const j of [k - d, k + d]) {
        if (clauses[j]?.sentenceIndex !== sentence || sign[j] === 0) continue;
        readings[k] = found.map((r) => ({
          ...r,
          score: -(sign[j] as number) * CONTRAST_SCORE,
          polar: true,
          inferred: true,
        }));
        return;
      }
    }
  });
}

/**
 * "Two visits in, I can't say yet whether it's doing anything": a review that calls the result not
 * known yet has told no poor result. The pain it told ("three weeks of Advil and I still couldn't put
 * my socks on") is why the patient came, so the aspect's negative readings in every clause go, and
 * the clauses that say so read it as neutral. A good result it told in words of the rules still
 * counts ("more give in my back already, though it's early days"); one the models gave does not. Returns whether the review says so: then neither the
 * rating nor the review model may give the aspect a side. A promise to update the review says so
 * more weakly (update-promised.ts).
 */
export function undecidedResult(
  clauses: readonly Clause[],
  readings: AspectReading[][],
  shapes: Constructions,
): boolean {
  const aspect = shapes.undecidedAspect;
  if (aspect < 0) return false;
  if (!clauses.some((c) => shapes.undecided(c))) return updatePromised(clauses, readings, aspect);
  clauses.forEach((clause, k) => {
    const said = shapes.undecided(clause);
    // A side only the models gave is no result told either ("I did a few visits and stopped").
    const kept = (readings[k] as AspectReading[]).filter(
      (r) => r.aspect !== aspect || (!said && !(r.polar && (r.score < 0 || r.learned !== undefined))),
    );
    if (said) kept.push({ aspect, score: 0, polar: false, words: [], byCondition: true });
    readings[k] = kept;
  });
  return true;
}

/**
 * "I only wish I had found Dr. Kim sooner", "why can't all doctors be like her?": a wish that
 * praises (wishes.ts) is no complaint, so a negative reading that rests on its words alone becomes an
 * unjudged one, which the rating may side; in a clause that borrowed its aspects (`borrowed`), which
 * the wish does not judge, it goes.
 */
export function praisingWishes(
  clauses: readonly Clause[],
  readings: AspectReading[][],
  borrowed: ReadonlySet<number>,
): void {
  clauses.forEach((clause, k) => {
    const { normals, values } = clause.tokens;
    const words = new Set<string>();
    for (let i = clause.start; i < clause.end; i++) {
      const asks = normals[i] === "wish" || normals[i] === "why";
      const span = asks ? praisingWish(normals, i, clause.start, clause.end) : null;
      for (let j = span?.[0] ?? 0; span && j <= span[1]; j++) words.add(`${values[j]}-`);
    }
    const praised = (r: AspectReading) => r.polar && r.score < 0 && r.words.every((w) => words.has(w));
    if (borrowed.has(k)) readings[k] = (readings[k] as AspectReading[]).filter((r) => !praised(r));
    else
      for (const r of readings[k] as AspectReading[])
        if (praised(r)) Object.assign(r, { score: 0, polar: false, words: [] });
  });
}

/** What a clause may open with to wave away the complaint before it: "…kinda chilly but whatever, thank u". */
const WAVES = new Set(["whatever", "anyway", "anyways", "meh"]);
const OPENERS = new Set(["but", "though", "tho", "oh", "well", "so"]);

/** Words by which a clause goes on about what came before: "but anyway they sorted it quickly". */
const BACK = new Set(["they", "them", "their", "it", "its", "she", "her", "he", "him", "his"]);

/**
 * Whether the clause opens by waving away what its sentence said before ("but whatever", "oh well")
 * and says nothing more of it ("but whatever, they were lovely about it" does).
 */
export function wavesAway(clause: Clause): boolean {
  const { normals, words } = clause.tokens;
  let i = clause.start;
  while (i < clause.end && (!words[i] || OPENERS.has(normals[i] as string))) {
    if (normals[i] === "well" && normals[i - 1] === "oh") break;
    i++;
  }
  if (i >= clause.end || (normals[i] !== "well" && !WAVES.has(normals[i] as string))) return false;
  return !normals.slice(i + 1, clause.end).some((n) => BACK.has(n));
}
