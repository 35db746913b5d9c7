import { amountChange } from "./amounts.ts";
import { awaitsResult, noCondition } from "./aspects.ts";
import { attribute, names, type Polar, WORD_WEIGHT } from "./attribute.ts";
import { readConditions } from "./but-for.ts";
import type { Ability, Delay } from "./constructions.ts";
import { briefStretch } from "./durations.ts";
import {
  type CompiledLexicon,
  FIRST_CONDITION,
  NEGATIVE,
  OUTCOME_NEGATIVE,
  OUTCOME_POSITIVE,
  POSITIVE,
} from "./lexicon.ts";
import {
  concedes,
  DISCOURSE,
  diminishesAt,
  LINKS,
  MODALS,
  NEGATORS,
  negatesNothing,
  nounPhraseEnds,
  patientsAct,
  ratesStars,
  SCOPE,
  SCOPE_END,
  SHRUGS,
} from "./negation.ts";
import type { Clause } from "./nlp.ts";
import { quotedTokens } from "./quoted.ts";
import type { AspectReading, AspectSpan } from "./readings.ts";
import { someoneStill } from "./results-told.ts";
import { takesNothingAway, tookAway } from "./taken-away.ts";
import { isComparative, wishAt } from "./wishes.ts";
import { noComplaintAt, noOpinionAt, noPraiseAt, patientReturns, workDone } from "./word-senses.ts";

/**
 * Polarity of one clause towards each aspect it mentions.
 *
 * 1. Every word gets a value: the domain lexicon of `sentiment.yaml` first (opinion words, outcome
 *    words, neutralised words, condition words), else wink's general lexicon. Condition words
 *    ("sciatica") are worth nothing by themselves; outcome words ("gone", "came back") count only in a
 *    clause that names a condition, and count for that condition's aspect, or, when the outcome is an
 *    aspect's own term ("much better"), in a clause that names no other aspect.
 * 2. A negator ("not", "no", "never", "without", "nobody", "anything but") flips the words after it
 *    up to the next punctuation mark or "and" ("no" before a noun: its noun phrase and what that is
 *    the subject of); "not perfect, but…" concedes a flaw. A negated condition is an absent symptom,
 *    a good outcome ("no more headaches"), unless a general one ("no issues") beside another aspect,
 *    which then went well. After "can't", a comparative is praise ("could not be happier"). Praise
 *    "would be" given "if" something were so is none; what it needs is wished for (wishes.ts).
 * 3. Each polar word is credited to one aspect: its own when the word is an aspect term ("rude"), else
 *    the nearest mention in its segment (segments end at commas, "and", "with"), else in the clause.
 */

/** Constructions found in a clause (constructions.ts), with the aspects they speak for. */
export interface Shapes {
  abilities: readonly Ability[];
  delays: readonly Delay[];
  abilityAspect: number;
  delayAspect: number;
  /** Where a plan is laid out before the practitioner looked (prescriptions.ts), or -1; it speaks for `planAspect`. */
  planBeforeLooking?: number;
  planAspect?: number;
}
const NO_SHAPES: Shapes = { abilities: [], delays: [], abilityAspect: -1, delayAspect: -1 };
/** A negated opinion is weaker than the opposite opinion: "not great" is not "terrible". */
const NEGATION_FACTOR = -0.8;
/** Condition modifiers: "terrible back pain" describes the condition, it does not judge the clinic. */
const MODIFIER_POS = new Set(["ADJ", "ADV"]);

/**
 * Reads `clause` for the aspects in `mentions` (all within the clause). Returns one reading per
 * distinct aspect, in ascending aspect order; weak mentions without any credited opinion are dropped.
 */
export function readClause(
  clause: Clause,
  mentions: readonly AspectSpan[],
  lexicon: CompiledLexicon,
  wordScore: (normal: string) => number,
  shapes: Shapes = NO_SHAPES,
): AspectReading[] {
  if (mentions.length === 0) return [];
  const { normals, lemmas, words, pos } = clause.tokens;
  const { start, end } = clause;
  const value = new Float64Array(end - start);
  /** Aspect a token's value is bound to, or -1. */
  const bound = new Int32Array(end - start).fill(-1);
  const condition = new Int32Array(end - start).fill(-1);
  /** A condition of a group that needs evidence ("back", "problem", "issues"). */
  const weakCondition = new Uint8Array(end - start);
  const covered = new Uint8Array(end - start);
  /** A negated condition: a symptom that was not there ("it didn't hurt"). */
  const absent = new Uint8Array(end - start);
  /** A value from wink's general lexicon: 1 for a word that judges, 2 for a noun that names (`names`). */
  const general = new Uint8Array(end - start);
  /** An adjective after "less" or "least", already turned ("less convenient"). */
  const diminished = new Uint8Array(end - start);
  const found = lexicon.matcher.spans(clause);
  // A wait for a result ("waiting to see if it helps") is no wait at the office, and no opinion either.
  const awaited = found.filter((s) => s.group >= FIRST_CONDITION && awaitsResult(clause.tokens, s.start, s.end));
  for (const s of awaited) covered[s.start - start] = 1;
  const spans = found.filter(
    (s) => s.group < FIRST_CONDITION || !(noCondition(clause.tokens, s.start, s.end) || awaited.includes(s)),
  );
  const conditions = spans.filter((s) => s.group >= FIRST_CONDITION);
  const hasCondition = conditions.length > 0;
  const nearestCondition = (at: number) => {
    let best = -1;
    let dist = Number.POSITIVE_INFINITY;
    for (const s of spans) {
      if (s.group < FIRST_CONDITION || Math.abs(s.start - at) >= dist) continue;
      dist = Math.abs(s.start - at);
      best = lexicon.conditionAspects[s.group - FIRST_CONDITION] as number;
    }
    return best;
  };
  for (const s of spans) {
    for (let i = s.start; i < s.end; i++) covered[i - start] = 1;
    const k = s.start - start;
    if (s.group === POSITIVE) value[k] = noPraiseAt(clause.tokens, s.start, s.end, start, end) ? 0 : WORD_WEIGHT;
    else if (s.group === NEGATIVE)
      value[k] = noComplaintAt(clause.tokens, s.start, s.end, start, conditions, mentions, end) ? 0 : -WORD_WEIGHT;
    else if (s.group === OUTCOME_POSITIVE || s.group === OUTCOME_NEGATIVE) {
      // With no condition in the clause, an outcome that is itself a term of an aspect speaks for
      // it ("…, but much better"); not beside another aspect's own term ("parking is much better").
      const itself = hasCondition ? undefined : mentions.find((m) => m.start <= s.start && s.start < m.end);
      if (itself && mentions.some((m) => m.aspect !== itself.aspect && !m.condition)) continue;
      if ((!hasCondition && !itself) || patientReturns(clause.tokens, s.start, start)) continue;
      // "he still twisted my neck", "the dr still can't tell me": someone kept on, no condition unchanged.
      if (someoneStill(clause.tokens, s.start, start, mentions, shapes.abilityAspect, conditions)) continue;
      if (takesNothingAway(clause.tokens, s, conditions)) {
        // Its words read as any others then: the "no" of "left with no answers" denies the answers.
        for (let i = s.start; i < s.end; i++) covered[i - start] = 0;
        continue;
      }
      value[k] = s.group === OUTCOME_POSITIVE ? WORD_WEIGHT : -WORD_WEIGHT;
      bound[k] = itself ? itself.aspect : nearestCondition(s.start);
    } else if (s.group >= FIRST_CONDITION) {
      condition[k] = lexicon.conditionAspects[s.group - FIRST_CONDITION] as number;
      weakCondition[k] = lexicon.conditionWeak[s.group - FIRST_CONDITION] ? 1 : 0;
    }
  }
  // "Booked my appointment easily, no issues there", "my wheelchair no problem": a weak condition
  // denied in a clause that names another aspect by its own terms says that aspect went well.
  const otherNamed = (aspect: number, at: number) => {
    let best: AspectSpan | undefined;
    for (const m of mentions) {
      if (m.aspect === aspect || m.condition) continue;
      if (!best || Math.abs(m.start - at) < Math.abs(best.start - at)) best = m;
    }
    return best?.aspect ?? -1;
  };
  for (let i = start; i < end; i++) {
    if (!covered[i - start] && words[i] && !NEGATORS.has(normals[i] as string)) {
      const n = normals[i] as string;
      if (noOpinionAt(clause.tokens, i, start, end)) continue;
      // A comparative the lexicon lacks ("friendlier") is worth its lemma ("friendly").
      value[i - start] = wordScore(n) || (isComparative(n, lemmas[i] as string) ? wordScore(lemmas[i] as string) : 0);
      general[i - start] = value[i - start] === 0 ? 0 : names(clause, i) ? 2 : 1;
    }
  }
  for (let i = start; i < end; i++) {
    // "an appointment I had cancelled": the patient's own act is no complaint about the practice;
    // "worked on my jaw", "where he works": the work itself, not that it worked.
    if (patientsAct(normals, lemmas, pos, i, start) || workDone(normals, lemmas, i, start)) value[i - start] = 0;
  }
  // "okay the wait is LONG", "ok so the doctor was rude": an interjection opens the clause, it judges nothing.
  if (pos[start] === "INTJ" && DISCOURSE.has(normals[start] as string)) value[0] = 0;
  for (let i = start; i < end; i++) {
    const n = normals[i] as string;
    // "…, so I figured what the hell.", "what the heck, I booked": a shrug; "What the hell was he thinking?" judges.
    const shrug = SHRUGS.has(n) && normals[i - 1] === "the" && normals[i - 2] === "what";
    if (shrug && (i + 1 === end || SCOPE_END.has(normals[i + 1] as string))) value[i - start] = 0;
    const judged = (j: number) => value[j - start] !== 0;
    if (!diminishesAt(normals, pos, i, end, judged, (j) => (condition[j - start] ?? -1) >= 0)) continue;
    value[i - start] = 0;
    value[i + 1 - start] = (value[i + 1 - start] as number) * NEGATION_FACTOR;
    general[i - start] = 0;
    diminished[i + 1 - start] = 1;
  }
  // Constructions (constructions.ts): an ability speaks for its aspect alone, and its limiter
  // ("barely", "couldn't") negates nothing else; a delay speaks for its aspect when the clause names it.
  for (const a of shapes.abilities) {
    for (let i = a.start; i < a.end; i++) {
      value[i - start] = 0;
      covered[i - start] = 1;
    }
    if (a.value !== 0) {
      value[a.start - start] = a.value * WORD_WEIGHT;
      general[a.start - start] = 0;
      bound[a.start - start] = shapes.abilityAspect;
    }
  }
  const delayNamed = mentions.some((m) => m.aspect === shapes.delayAspect);
  for (const d of shapes.delays) {
    value[d.at - start] = d.value * WORD_WEIGHT;
    general[d.at - start] = 0;
    covered[d.at - start] = 1;
    if (delayNamed) bound[d.at - start] = shapes.delayAspect;
  }
  // "went from every day to roughly weekly": less of a condition is a good result, more a poor one.
  if (hasCondition) {
    for (let i = start; i < end; i++) {
      const [side, to] = covered[i - start] ? [0, i] : amountChange(clause.tokens, i, start, end);
      if (side === 0) continue;
      // The words of the change ("down to") carry no value of their own.
      for (let k = i; k <= to; k++) value[k - start] = 0;
      for (let k = i; k <= to; k++) covered[k - start] = 1;
      value[i - start] = side * WORD_WEIGHT;
      general[i - start] = 0;
      bound[i - start] = nearestCondition(i);
    }
  }
  const plan = shapes.planBeforeLooking ?? -1;
  if (plan >= 0) {
    value[plan - start] = -WORD_WEIGHT;
    general[plan - start] = 0;
    covered[plan - start] = 1;
    bound[plan - start] = shapes.planAspect ?? -1;
  }
  const outcomes = spans.filter((o) => o.group === OUTCOME_NEGATIVE || o.group === OUTCOME_POSITIVE);
  for (const s of spans) {
    if (s.group < FIRST_CONDITION || lexicon.conditionJudged[s.group - FIRST_CONDITION]) continue;
    for (let i = Math.max(start, s.start - 2); i < s.start; i++) {
      if (normals[i] === "worse" && tookAway(lemmas, outcomes, i)) continue;
      if (MODIFIER_POS.has(pos[i] as string) && (bound[i - start] as number) < 0) value[i - start] = 0;
    }
  }

  const conditionOwns = readConditions(normals, start, end, mentions, value, bound);
  const quoted = quotedTokens(clause.tokens);
  // Negation: flip what follows a negator, up to the end of its scope.
  for (let p = start; p < end; p++) {
    const w = normals[p] as string;
    const anythingBut = w === "but" && normals[p - 1] === "anything";
    const wish = wishAt(normals, lemmas, p, end);
    if (wish >= 0) {
      value[wish - start] = 0;
      p = wish;
    } else if (covered[p - start] || !(NEGATORS.has(w) || anythingBut)) continue;
    if (negatesNothing(normals, pos, p) || ratesStars(normals, p + 1)) continue;
    if (wish < 0 && conditionOwns(p)) continue;
    // "wish it wasn't so hard", "wish I didn't have to wait": what is wished away is what is.
    if (wish < 0 && normals.slice(Math.max(start, p - 4), p).includes("wish")) continue;
    // "could not be happier" is praise; "could be happier" is a wish (wishes.ts), flipped below.
    const modal = wish < 0 && (MODALS.has(normals[p - 1] as string) || MODALS.has(normals[p - 2] as string));
    let praise = false;
    if (modal) {
      for (let i = p + 1; i < Math.min(end, p + 1 + SCOPE) && !SCOPE_END.has(normals[i] as string); i++) {
        if (isComparative(normals[i] as string, lemmas[i] as string)) praise = true;
      }
    }
    // Once an opinion word has been negated, a condition after it is what the opinion is about
    // ("hasn't made any difference to my hip"), not an absent symptom.
    let flipped = false;
    for (let i = p + 1; i < Math.min(end, p + 1 + SCOPE); i++) {
      const n = normals[i] as string;
      // A quotation's negator is someone else's word, as its opinion words are: it turns nothing outside it.
      if (SCOPE_END.has(n) || quoted[i] !== quoted[p] || (i > p + 1 && NEGATORS.has(n) && !covered[i - start])) break;
      const k = i - start;
      if (praise) {
        // "couldn't be more helpful or less rushed": a word "less" turned is praise already.
        if (diminished[k]) continue;
        value[k] = Math.abs(value[k] as number) || (isComparative(n, lemmas[i] as string) ? WORD_WEIGHT : 0);
      } else if ((condition[k] as number) >= 0) {
        const other = weakCondition[k] ? otherNamed(condition[k] as number, i) : -1;
        if (!flipped) {
          value[k] = WORD_WEIGHT;
          bound[k] = other >= 0 ? other : (condition[k] as number);
          absent[k] = other >= 0 ? 0 : 1;
        }
      } else if (modal && diminished[k] && normals.slice(p + 1, i - 1).every((w) => LINKS.has(w))) {
        // "couldn't be less helpful": as unhelpful as can be, already read so.
        flipped = true;
      } else if (value[k] !== 0) {
        value[k] = concedes(normals, i, end) ? 0 : (value[k] as number) * NEGATION_FACTOR;
        flipped = true;
      }
      if (nounPhraseEnds(normals, pos, p, i)) break;
    }
  }
  // "My hip felt better for about a day": a good result that outlasted nothing is relief that wore off.
  const brief = briefStretch(clause);
  for (let k = 0; k < brief - start; k++) if ((value[k] as number) > 0) value[k] = -(value[k] as number);
  const polar: Polar[] = [];
  for (let k = 0; k < value.length; k++) {
    if (quoted[start + k]) continue;
    const v = value[k] as number;
    if (v === 0) continue;
    polar.push({
      at: start + k,
      value: v,
      ...((bound[k] as number) >= 0 ? { aspect: bound[k] } : {}),
      ...(absent[k] ? { absent: true } : {}),
      ...(general[k] ? { wink: general[k] === 2 ? ("names" as const) : ("judges" as const) } : {}),
    });
  }
  return attribute(clause, mentions, polar);
}
