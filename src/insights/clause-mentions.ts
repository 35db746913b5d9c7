import { bookedTime } from "./booked-time.ts";
import { wavesAway } from "./clause-rules.ts";
import { type Ability, type Constructions, type Delay, isPlace } from "./constructions.ts";
import { testFindings } from "./findings.ts";
import type { Clause } from "./nlp.ts";
import { handledAnyway, planBeforeLooking } from "./prescriptions.ts";
import type { AspectSpan } from "./readings.ts";
import { tripInPassing } from "./set-phrases.ts";
import { turnsToTheRest } from "./the-rest.ts";
import { workDone } from "./word-senses.ts";

/**
 * The aspects a clause mentions: its own terms, those its constructions speak for (an ability, a
 * delay, a lapse of care), and, when it names none, those of the clause before it in its sentence.
 */

/** What the clause before in the review left for the next one to borrow. */
export interface PreviousClause {
  sentenceIndex: number;
  spans: AspectSpan[];
  /** Whether it said the result is not known yet: its result is not lent. */
  undecided: boolean;
}

export interface ClauseMentions {
  spans: AspectSpan[];
  abilities: Ability[];
  delays: Delay[];
  /** Where care lapsed (prescriptions.ts), or -1; it speaks for the treatment's aspect. */
  lapse: number;
  /** Whether the spans are the clause before's. */
  borrows: boolean;
}

/** `own`: the clause's mentions by the aspects' terms (aspects.ts). */
export function clauseMentions(
  clause: Clause,
  own: AspectSpan[],
  shapes: Constructions,
  previous: PreviousClause | undefined,
): ClauseMentions {
  // "A drill next door during my appointment", "weeks since my last appointment": the booking names
  // when something happened, not how it was kept.
  let spans = own.filter((m) => m.aspect !== shapes.delayAspect || !toldWhen(clause, m));
  // "I gave up and walked out", "walked out before anyone treated me": leaving, not how the patient left.
  spans = spans.filter((m) => m.aspect !== shapes.abilityAspect || !walkedOff(clause, m));
  // "He'll go over my x-ray results": what a test found, no result of the treatment.
  const { normals, lemmas } = clause.tokens;
  spans = spans.filter(
    (m) =>
      m.aspect !== shapes.abilityAspect ||
      m.end !== m.start + 1 ||
      !testFindings(normals, lemmas, m.start, clause.start, clause.end),
  );
  // "On my way home my back seized", "hurt my knee on a trek": a journey, not the practice's place.
  spans = spans.filter((m) => !tripInPassing(clause.tokens, m.start, m.end, clause.start));
  // "Showed up for my 9am": the patient's time of day is their appointment (booked-time.ts).
  const booked = shapes.delayAspect < 0 ? undefined : bookedTime(clause);
  if (booked && !spans.some((m) => m.aspect === shapes.delayAspect)) {
    const time = { aspect: shapes.delayAspect, ...booked, weak: false };
    if (!toldWhen(clause, time)) spans.push(time);
  }
  let borrows = false;
  const abilities = shapes.abilityAspect < 0 ? [] : shapes.abilities(clause);
  for (const a of abilities) {
    spans.push({ aspect: shapes.abilityAspect, start: a.start, end: a.end, weak: false, condition: true });
  }
  // "The front desk was polite enough, but clearly overwhelmed": a contrast clause naming no aspect
  // is about the aspects of the clause before it in its sentence (quoted on stricter terms).
  // One that waves it away ("…kinda chilly but whatever, thank u") says nothing more of them.
  // Not the result a clause said is not known yet ("no results yet, but I'm in good hands"), and
  // nothing when it turns to the rest ("but everything else was great": the-rest.ts).
  const turns = spans.length === 0 && turnsToTheRest(clause);
  if (spans.length === 0 && previous?.sentenceIndex === clause.sentenceIndex && !wavesAway(clause) && !turns) {
    const open = previous.undecided ? shapes.undecidedAspect : -1;
    spans = previous.spans.filter((m) => !m.weak && m.aspect !== open);
    borrows = spans.length > 0;
  }
  const delays = shapes.delays(clause);
  // "The soonest they could see me was two weeks later", "I was on the table within five
  // minutes": a delay in a clause that names nothing but where it happened is about the delay
  // aspect.
  const places = spans.every((m) => m.aspect !== shapes.delayAspect && (m.weak || isPlace(clause, m.start)));
  if (shapes.delayAspect >= 0) {
    for (const d of places ? delays : delays.filter((x) => x.late)) {
      spans.push({ aspect: shapes.delayAspect, start: d.at, end: d.at + 1, weak: false, condition: true });
    }
  }
  // "A 36-visit plan before he had even seen my X-rays": care that did not look first; or a
  // treatment done after the patient objected ("I asked him not to, and he did it anyway").
  const care = shapes.treatmentAspect;
  const { tokens, start, end } = clause;
  const lapse = care < 0 ? -1 : Math.max(planBeforeLooking(tokens, start, end), handledAnyway(tokens, start, end));
  if (lapse >= 0 && !spans.some((m) => m.aspect === care && !m.weak)) {
    spans.push({ aspect: care, start: lapse, end: lapse + 1, weak: false, condition: true });
  }
  // "The adjustments work", "the treatment has really helped": whether it worked is the result's.
  const result = shapes.abilityAspect;
  const works = result < 0 || spans.some((m) => m.aspect === result) ? -1 : treatmentWorks(clause, shapes);
  if (works >= 0) spans.push({ aspect: result, start: works, end: works + 1, weak: false, condition: false });
  return { spans, abilities, delays, lapse, borrows };
}

/** Verbs that tell a treatment did its work, by lemma. */
const WORK = new Set(["work", "help"]);
/** How far before the verb the treatment may stand: "the adjustments have really helped". */
const WORK_REACH = 4;

/** Words before the verb that leave open whether it works: "if the adjustments would help", "maybe it helps". */
const OPEN = new Set([
  "if",
  "whether",
  "would",
  "could",
  "might",
  "may",
  "will",
  "should",
  "maybe",
  "perhaps",
  "hopefully",
]);
const firstOnly = (normals: readonly string[], i: number, end: number) =>
  normals.slice(i, end).some((n, k) => n === "at" && normals[i + k + 1] === "first");

/** Where a treatment is said to work or help ("adjustments work", "the adjustment helped"), or -1. */
function treatmentWorks(clause: Clause, shapes: Constructions): number {
  const { tokens, start, end } = clause;
  for (let i = start + 1; i < end; i++) {
    if (!WORK.has(tokens.lemmas[i] as string)) continue;
    // wink tags "adjustments work" a compound noun; right after the treatment it is still the verb.
    const next = shapes.treats({ ...clause, start: i - 1, end: i });
    if (tokens.pos[i] !== "VERB" && !(tokens.pos[i] === "NOUN" && next)) continue;
    // "worked on my neck": the work done, not that it worked (word-senses.ts).
    if (workDone(tokens.normals, tokens.lemmas, i, start)) continue;
    // "if the adjustments would help" asks; "helped at first" tells relief that did not last.
    const from = Math.max(start, i - WORK_REACH);
    if (tokens.normals.slice(from, i).some((n) => OPEN.has(n)) || firstOnly(tokens.normals, i, end)) continue;
    if (shapes.treats({ ...clause, start: from, end: i }) || saidOfIt(tokens, i, start)) return i;
  }
  return -1;
}

/** What may stand between "it" and its verb: "it kinda helped", "it has really helped", "it did help". */
const BEFORE_VERB = new Set(["ADV", "AUX", "PART"]);
/** Words after the verb that make "it" no treatment: "it helps that they open early", "it worked out". */
const NOT_IT = new Set(["that", "out", "when", "knowing", "having"]);

/**
 * Whether the verb at `i` is said of "it" as its subject ("it kinda helped", "honestly it works"):
 * in a review of a practice, the treatment; "hope this helps" and "that works for me" are not.
 */
function saidOfIt({ normals, pos }: Clause["tokens"], i: number, start: number): boolean {
  let k = i - 1;
  // "it sort of helped": the hedge is tagged a verb or a noun and a preposition.
  const hedge = (j: number) => normals[j] === "of" && (normals[j - 1] === "sort" || normals[j - 1] === "kind");
  while (k > start && (BEFORE_VERB.has(pos[k] as string) || hedge(k))) k -= hedge(k) ? 2 : 1;
  if (NOT_IT.has(normals[i + 1] as string)) return false;
  // "I want it to work", "I need it to help": what the patient wants of it, not what it did.
  return k >= start && normals[k] === "it" && !normals.slice(k + 1, i).includes("to");
}

/** Prepositions of the time something happened: "during my appointment", "since my last session". */
const WHEN = new Set(["during", "since", "after", "before"]);
const BEFORE_NOUN = new Set(["DET", "ADJ", "NUM", "PRON"]);

/** Whether the mention `m` is the time something happened: after a preposition of time, with no verb of its own after it. */
function toldWhen({ tokens: { normals, pos }, start, end }: Clause, m: AspectSpan): boolean {
  let k = m.start - 1;
  while (k >= start && BEFORE_NOUN.has(pos[k] as string) && !WHEN.has(normals[k] as string)) k--;
  const verb = m.end < end && (pos[m.end] === "AUX" || pos[m.end] === "VERB");
  return k >= start && WHEN.has(normals[k] as string) && !verb;
}

/** What follows "walked out" when it tells the leaving: "walked out before anyone treated me", "walked out unseen". */
const LEAVING = new Set(["before", "untreated", "unseen", "halfway", "while", "mid", "early", "at", "in", "on"]);
const LEFT_FROM = new Set(["there", "here", "it"]);
/** Whom "walked out on" leaves: "walked out on me", "walked out on the doctor". */
const LEFT_WHOM = new Set(["me", "us", "them", "him", "her", "the"]);

/**
 * Whether the mention `m` is "walked out" that tells someone left ("so I walked out", "walked out of
 * there before he touched me"), not how the patient left ("walked out standing straight").
 */
function walkedOff({ tokens: { normals, lemmas, pos }, end }: Clause, m: AspectSpan): boolean {
  if (lemmas[m.start] !== "walk" || normals[m.start + 1] !== "out" || m.end !== m.start + 2) return false;
  let k = m.end;
  // "walked out of there", "walked out of the office": from where, then what follows.
  if (normals[k] === "of") {
    k++;
    if (LEFT_FROM.has(normals[k] as string)) k++;
    else if (pos[k] === "DET" || pos[k] === "PRON") k += 2;
  }
  // "walked out without being seen"; "walked out without my usual limp" is how.
  const next = normals[k] as string | undefined;
  if (next === "without") return normals[k + 1] === "being" || normals[k + 1] === "seeing";
  // "walked out on them" leaves someone; "walked out on cloud nine", "at least an inch taller" is how.
  if (next === "on") return LEFT_WHOM.has(normals[k + 1] as string);
  if (next === "at" && normals[k + 1] === "least") return false;
  return k >= end || !/^[a-z0-9$]/.test(next ?? "") || LEAVING.has(next as string);
}
