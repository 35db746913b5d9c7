import { compileTerms, type TermMatch, type TermMatcher } from "./aspects.ts";
import type { AspectDefinition, SentimentLexicon } from "./content-schema.ts";
import { countWord, numberBefore, UNITS } from "./durations.ts";
import { shortTrip } from "./nearby.ts";
import type { Analyzer, Clause } from "./nlp.ts";
import { aboutResult, aftermath, notKnownYet, progressed } from "./results-told.ts";
import { callUnanswered } from "./word-senses.ts";

/**
 * Constructions that carry an opinion with no opinion word, read from the shape of a clause rather
 * than from one word (docs/insights.md, Method):
 *
 * - **Abilities.** "I could barely stand", "I can't turn my head": a limit on an everyday activity
 *   (`abilities` in sentiment.yaml) is about the patient's body, so it names pain relief and nothing
 *   else in its clause. Told in the past it is why someone came (neutral, like a condition word); in
 *   the present it is a poor result. "I can drive again" / "now I can sleep" is a good one.
 * - **Delays.** "the next opening was three weeks out", "my refund took four months": a long stretch
 *   of time with a word of delay (out, away, later, past, took, waited, on hold…) is a complaint;
 *   "within five minutes" is praise. It speaks for the `delays` aspect when the clause names it.
 * - **Expectations** and **treatments** are word lists used across clauses by annotate.ts: "I expected
 *   it to hurt, but it never did" is praise, and an adjustment that did not hurt speaks for care too.
 */

export interface Ability {
  /** Token range of the construction, limiter to verb. */
  start: number;
  end: number;
  /** -1 a limit told in the present, 0 a limit told in the past, +1 an ability regained. */
  value: -1 | 0 | 1;
}

export interface Delay {
  at: number;
  /** -1 a long delay, +1 a short one ("within ten minutes"). */
  value: -1 | 1;
  /** Lateness ("running 10 minutes behind") or promptness ("within five minutes of arriving"): the delay aspect's, whoever the clause names. */
  late?: true;
}

export interface Constructions {
  /** Aspect index abilities speak for, or -1 when sentiment.yaml names none. */
  abilityAspect: number;
  /** Aspect index delays speak for when a clause names it, or -1. */
  delayAspect: number;
  /** Aspect index a painless treatment also speaks for, or -1. */
  treatmentAspect: number;
  abilities(clause: Clause): Ability[];
  delays(clause: Clause): Delay[];
  /** Whether the clause voices an expectation or a fear ("I expected", "I was afraid"). */
  expects(clause: Clause): boolean;
  /** The side of what a clause expected when its words say it: -1 for a fear, 1 for a hope, else 0. */
  expectedSide(clause: Clause): number;
  /** Whether the clause names the treatment itself ("the adjustment"). */
  treats(clause: Clause): boolean;
  /** Whether the clause opens with another provider ("the walk-in clinic gave me pills"): it tells of them. */
  elsewhere(clause: Clause): boolean;
  /** Aspect index whose result a clause may call not known yet, or -1. */
  undecidedAspect: number;
  /** Whether the clause says the result is not known yet ("too early to tell", "still waiting on results"). */
  undecided(clause: Clause): boolean;
}

const LIMITERS = new Set("barely hardly scarcely unable not never struggled struggle trouble".split(" "));
/** A limit told lifted: "now i can", not "now i can't" or "now i can barely". */
const LIFTED = new RegExp(`\\bnow (?:\\S+ ){0,2}(?:can|able)(?: |$)(?!(?:n't|${[...LIMITERS].join("|")})\\b)`);
/** Words that may stand between a limiter and its verb. */
const GOVERNED = new Set("even really properly barely hardly able to be ever comfortably fully".split(" "));
const PAST = new Set(["could", "was", "were", "did", "had", "struggled", "used", "would"]);
/** Present, and present perfect: "I haven't been able to sleep since" is a result, not a memory. */
const PRESENT = new Set(["can", "am", "is", "are", "do", "does", "still", "'m", "have", "has", "'ve"]);
const REGAINED = new Set(["again", "now", "finally", "anymore", "today", "without"]);
const ABLE = new Set(["can", "able"]);
const LONG_UNITS = new Set(["week", "month", "year", "summer", "winter", "spring", "fall"]);
/** After a long stretch ("three weeks out"); after minutes or hours, lateness counts too ("an hour past"). */
const AFTER_CUES = new Set(["out", "off", "away", "later", "ahead", "overdue"]);
const LATE_CUES = new Set(["past", "after", "late", "behind", "over"]);
const CLAUSE_CUES = new Set(["wait", "sit", "spend", "take", "hold", "delay", "until", "keep"]);
/** What makes "two weeks later" a wait: "the soonest", "the next opening". */
const SOONEST = new Set(["soonest", "earliest", "next", "first"]);
const SHORT_CUES = new Set(["within", "under", "only", "just"]);
/** Minutes from which a wait reads as long. */
const LONG_MINUTES = 20;

/** Whether "take" governs the stretch ending at unit `i` ("took the next two days off"), not a patient ("take me"). */
function takenOff({ tokens: { normals, lemmas, pos }, start }: Clause, i: number): boolean {
  let k = i - 1;
  const inStretch = (n: string) => countWord(n) || STRETCH_POS.has(pos[k] as string);
  while (k > start && k >= i - 4 && inStretch(normals[k] as string)) k--;
  return lemmas[k] === "take";
}
const STRETCH_POS = new Set(["NUM", "DET", "ADJ"]);

export function compileConstructions(
  lexicon: SentimentLexicon,
  aspects: readonly AspectDefinition[],
  termForms: Analyzer["termForms"],
): Constructions {
  const index = (id: string | undefined) => (id === undefined ? -1 : aspects.findIndex((a) => a.id === id));
  const matcher: TermMatcher = compileTerms(
    [
      lexicon.abilities?.terms ?? [],
      lexicon.expectations,
      lexicon.treatments?.terms ?? [],
      lexicon.fears,
      lexicon.hopes,
      lexicon.elsewhere,
      lexicon.undecided?.terms ?? [],
    ],
    termForms,
  );
  // Each rule asks about the same clause: its matches are found once, and whether it leaves the result open.
  const spans = once((clause) => matcher.spans(clause));
  const has = (clause: Clause, group: number) => spans(clause).some((s) => s.group === group);
  return {
    abilityAspect: index(lexicon.abilities?.aspect),
    delayAspect: index(lexicon.delays),
    treatmentAspect: index(lexicon.treatments?.aspect),
    undecidedAspect: index(lexicon.undecided?.aspect),
    undecided: once(
      (clause) => spans(clause).some((s) => s.group === 6 && aboutResult(clause, s.end)) || notKnownYet(clause),
    ),
    abilities(clause) {
      const { normals, lemmas, pos } = clause.tokens;
      const out: Ability[] = [];
      for (const s of spans(clause)) {
        if (s.group !== 0) continue;
        if (callUnanswered(normals, lemmas, s.start, s.end)) continue;
        // The limiter governs the verb itself: "could barely stand", "was unable to sit", not
        // "can't keep driving over" (a limit on the errand, not on the body).
        let limiter = -1;
        for (let k = s.start - 1; k >= Math.max(clause.start, s.start - 4); k--) {
          const w = normals[k] as string;
          if (LIMITERS.has(w)) limiter = k;
          else if (!GOVERNED.has(w)) break;
        }
        const from = Math.max(clause.start, (limiter >= 0 ? limiter : s.start) - 2);
        const around = normals.slice(from, s.start);
        if (limiter >= 0) {
          // In the past when a past form governs it, or none does and the clause has a past form
          // ("woke up unable to turn my neck"); in the present when a present form governs it.
          let pastBefore = normals[s.start] !== lemmas[s.start];
          for (let k = clause.start; k < limiter && !pastBefore; k++) {
            const w = normals[k] as string;
            pastBefore = PAST.has(w) || (pos[k] === "VERB" && w !== lemmas[k] && !w.endsWith("ing"));
          }
          const past = around.some((w) => PAST.has(w)) || (!around.some((w) => PRESENT.has(w)) && pastBefore);
          // "couldn't turn my neck for 3 weeks now i can": a limit told in the past, then lifted.
          const lifted = past && LIFTED.test(normals.slice(s.end, clause.end).join(" "));
          // "after two visits to urgent care I could barely walk": another provider's visit left it.
          const elsewhere = spans(clause).some((x) => x.group === 5 && x.start < limiter);
          const left = !elsewhere && aftermath(clause, limiter);
          out.push({ start: limiter, end: s.end, value: lifted ? 1 : past && !left ? 0 : -1 });
        } else if (
          (around.some((w) => ABLE.has(w)) && normals.slice(clause.start, clause.end).some((w) => REGAINED.has(w))) ||
          (around.some((w) => ABLE.has(w) || w === "could") && progressed(clause, s.start))
        ) {
          out.push({ start: s.start, end: s.end, value: 1 });
        }
      }
      return out;
    },
    delays(clause) {
      const { normals, lemmas, pos } = clause.tokens;
      const out: Delay[] = [];
      const cue = lemmas.slice(clause.start, clause.end).some((l) => CLAUSE_CUES.has(l));
      const soonest = normals.slice(clause.start, clause.end).some((w) => SOONEST.has(w));
      // "expecting to wait a week": what was expected is not what happened.
      const expected = spans(clause).find((s) => s.group === 1)?.start ?? clause.end;
      // "only eight minutes away", "five minutes from my house": how near the practice is, no wait.
      const trip = shortTrip(clause);
      for (let i = clause.start; i < clause.end; i++) {
        const unit = lemmas[i] as string;
        if (!UNITS.has(unit) || i > expected || i === trip) continue;
        const n = numberBefore(normals, pos, i, clause.start);
        if (n < 0) continue;
        const before = normals.slice(Math.max(clause.start, i - 4), i);
        if (before.some((w) => SHORT_CUES.has(w)) && !LONG_UNITS.has(unit) && (unit !== "minute" || n < LONG_MINUTES)) {
          // "on the table within ten minutes of arriving": minutes counted from the appointment, a wait.
          out.push({ at: i, value: 1, ...(unit === "minute" && normals[i + 1] === "of" && { late: true as const }) });
          continue;
        }
        const long = LONG_UNITS.has(unit) || unit === "hour" || unit === "day" || n >= LONG_MINUTES;
        const next = normals[i + 1] as string;
        // "Six weeks later I finished the race" tells a story; "the soonest was two weeks later" waits.
        if (next === "later" && !cue && !soonest) continue;
        // "Took a week off work" is leave taken, not a wait; "the next opening is two weeks off" waits.
        if (next === "off" && takenOff(clause, i)) continue;
        const late = !LONG_UNITS.has(unit) && LATE_CUES.has(next);
        // "15 minutes late" is lateness however short, and the delay aspect's; "called back after ten
        // minutes" is no wait, and "I was 5 minutes late" the patient's own.
        const mine = normals.slice(clause.start, i).some((w) => w === "i" || w === "we");
        const behind = late && (next === "late" || next === "behind") && !mine;
        // "an appointment I cancelled two days ahead", "I book a month ahead": notice the patient gave.
        if (next === "ahead" && mine) continue;
        if (behind) out.push({ at: i, value: -1, late: true });
        else if (long && (cue || AFTER_CUES.has(next) || late)) out.push({ at: i, value: -1 });
      }
      return out;
    },
    expects: (clause) => has(clause, 1) || has(clause, 3) || has(clause, 4),
    expectedSide: (clause) => (has(clause, 3) ? -1 : has(clause, 4) ? 1 : 0),
    treats: (clause) => has(clause, 2),
    elsewhere(clause) {
      // As the clause's subject only: "unlike my old chiropractor, she listens" is about her.
      const { normals } = clause.tokens;
      let from = clause.start;
      while (from < clause.end && OPENERS.has(normals[from] as string)) from++;
      const named = (s: TermMatch) =>
        s.start === from || (s.start === from + 1 && DETERMINERS.has(normals[from] as string));
      // "Plenty of places to park": room for something here, not other providers.
      const room = (s: TermMatch) => normals[s.end] === "to" && normals[s.end - 1] === "places";
      return spans(clause).some((s) => s.group === 5 && named(s) && !room(s));
    },
  };
}

/** `f` asked once per clause, however many rules ask. */
function once<T>(f: (clause: Clause) => T): (clause: Clause) => T {
  const seen = new WeakMap<Clause, T>();
  return (clause) => {
    if (!seen.has(clause)) seen.set(clause, f(clause));
    return seen.get(clause) as T;
  };
}

/** What may come before a clause's subject: a conjunction, a comma, "then", "also". */
const OPENERS = new Set(["and", "but", "so", "then", ",", "because", "plus", "also", "even", "meanwhile"]);

const PLACE_PREPOSITIONS = new Set(["in", "on", "at", "into", "inside", "by", "near"]);
const DETERMINERS = new Set(["the", "a", "an", "my", "their", "your", "his", "her", "our", "that", "this"]);

/**
 * Whether the mention at `start` names where something happened ("in the lobby", "on the table"),
 * a preposition before it, rather than what the clause is about.
 */
export function isPlace(
  clause: Clause,
  start: number,
  prepositions: ReadonlySet<string> = PLACE_PREPOSITIONS,
): boolean {
  const k = beforeNounPhrase(clause, start);
  return k >= clause.start && prepositions.has(clause.tokens.normals[k] as string);
}

/** The word before the mention at `start` and its determiners ("in the lobby": "in"); below `clause.start` when none. */
function beforeNounPhrase(clause: Clause, start: number): number {
  let k = start - 1;
  while (k >= clause.start && DETERMINERS.has(clause.tokens.normals[k] as string)) k--;
  return k;
}

const INCLUDING = new Set(["including", "incl", "inclusive"]);
const CURRENCIES = new Set(["dollars", "bucks", "pounds", "euros"]);

/** Where "including" stands before the mention at `start` ("$39 including the exam"), or -1. */
function includingAt(clause: Clause, start: number): number {
  const { normals } = clause.tokens;
  let k = beforeNounPhrase(clause, start);
  if (k >= clause.start && normals[k] === "of") k--; // "inclusive of the exam"
  return k >= clause.start && INCLUDING.has(normals[k] as string) ? k : -1;
}

/** Whether the mention at `start` names a part of what the clause prices or praises ("$39 including the exam"). */
export const isIncluded = (clause: Clause, start: number): boolean => includingAt(clause, start) >= 0;

/** Whether the mention at `start` is a part of an amount ("$39 including the exam"), whose opinion is the price's. */
export function isPricedPart(clause: Clause, start: number): boolean {
  const k = includingAt(clause, start) - 1;
  const { pos, normals } = clause.tokens;
  return k >= clause.start && (pos[k] === "NUM" || CURRENCIES.has(normals[k] as string));
}

/** Pronouns that may point at someone or something other than what the clause before named ("their mistakes"). */
const OTHERS = new Set([
  ...["he", "him", "his", "she", "her", "hers", "they", "them", "their", "theirs"],
  ...["someone", "somebody", "anyone", "anybody", "nobody", "whoever"],
  // "…a bit of a drive, but this is the first thing that has worked": the treatment, not the drive.
  ...["this", "these", "those"],
]);

/**
 * Whether a clause that names no aspect, and so takes those of the clause before it, may be about
 * someone or something else: it has a third-person pronoun other than "it" ("…, but I'm tired of
 * catching their mistakes" after praise of the doctor) or a demonstrative ("…, but this is the first
 * thing that has worked" after the drive). It still counts for those aspects, but it is no quote; "…,
 * but clearly overwhelmed" and "…, but it was a total ripoff" are about what was named.
 */
export function mayReferElsewhere(clause: Clause): boolean {
  for (let i = clause.start; i < clause.end; i++) if (OTHERS.has(clause.tokens.normals[i] as string)) return true;
  return false;
}
