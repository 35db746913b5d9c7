import type { AspectDefinition, SentimentLexicon } from "./content-schema.ts";
import { namesSomeoneOfTheOffice } from "./given-names.ts";
import { lyingOnTheTable } from "./lying-down.ts";
import { patientsAct } from "./negation.ts";
import type { Clause, TermForms, TokenTable } from "./nlp.ts";
import type { AspectSpan } from "./readings.ts";

/**
 * Finding the editor's terms from `aspects.yaml` in a clause.
 *
 * Matching rule: a term is a sequence of tokens; it matches where the clause has the same number of
 * consecutive tokens and each clause token agrees with the term token on its lowercase form or its
 * lemma (either side's). So the term "billed" (lemma "bill") finds "bill", "bills" and "billed", and
 * "results" finds "result". A trailing full stop is ignored ("Dr." = "Dr"). Where terms overlap,
 * the longest match wins and its tokens are consumed, so "waiting room" is a facility mention and
 * not also a scheduling one via "waiting".
 */
export interface TermMatch {
  /** Token range `[start, end)` in the clause's token table. */
  start: number;
  end: number;
  /** Index of the group (aspect) whose term matched. */
  group: number;
}

export interface TermMatcher {
  /** Every match, left to right; several groups can share one range if their terms are equal. */
  spans(clause: Span): TermMatch[];
  /** Indexes of every group the clause mentions, ascending. */
  match(clause: Span): number[];
}

type Span = Pick<Clause, "tokens" | "start" | "end">;

interface CompiledTerm {
  group: number;
  /** Accepted forms per token: the term token's lowercase form and lemma. */
  forms: ReadonlySet<string>[];
}

/**
 * `groups[i]` holds the terms of group i (an aspect). With `exactForms`, a term matches only as
 * written or where the clause word's lemma is the term ("gone" must not find "going" through the
 * lemma "go"); the sentiment lexicon lists its inflections itself.
 */
export function compileTerms(
  groups: readonly (readonly string[])[],
  termForms: (term: string) => TermForms,
  exactForms = false,
): TermMatcher {
  const byFirstForm = new Map<string, CompiledTerm[]>();
  groups.forEach((terms, group) => {
    for (const term of terms) {
      const { normals, lemmas } = termForms(term);
      if (normals.length === 0) continue;
      const compiled: CompiledTerm = {
        group,
        forms: normals.map((n, i) => new Set(exactForms ? [n] : [n, lemmas[i] ?? n])),
      };
      for (const f of compiled.forms[0] as ReadonlySet<string>) {
        const list = byFirstForm.get(f);
        if (list) list.push(compiled);
        else byFirstForm.set(f, [compiled]);
      }
    }
  });

  const spans = ({ tokens: { normals, lemmas }, start, end }: Span): TermMatch[] => {
    const out: TermMatch[] = [];
    let longest = 0;
    let hits: number[] = [];
    const tryAt = (i: number, list: readonly CompiledTerm[] | undefined) => {
      if (!list) return;
      for (const c of list) {
        const n = c.forms.length;
        if (n < longest || i + n > end) continue;
        let ok = true;
        for (let k = 0; k < n && ok; k++) {
          const forms = c.forms[k] as ReadonlySet<string>;
          ok = forms.has(normals[i + k] as string) || forms.has(lemmas[i + k] as string);
        }
        if (!ok) continue;
        if (n > longest) {
          longest = n;
          hits = [c.group];
        } else if (!hits.includes(c.group)) hits.push(c.group);
      }
    };
    let i = start;
    while (i < end) {
      const normal = normals[i] as string;
      const lemma = lemmas[i] as string;
      longest = 0;
      hits = [];
      tryAt(i, byFirstForm.get(normal));
      if (lemma !== normal) tryAt(i, byFirstForm.get(lemma));
      if (hits.length > 1) hits.sort((a, b) => a - b);
      for (const group of hits) out.push({ start: i, end: i + longest, group });
      i += longest || 1;
    }
    return out;
  };

  return {
    spans,
    match(clause) {
      return [...new Set(spans(clause).map((s) => s.group))].sort((a, b) => a - b);
    },
  };
}

/**
 * Whether tokens `start`…`end` are "back" right after a verb ("go back", "drove back", "be back",
 * "called back"): the adverb, not the body part, unless a noun follows ("helped back pain"). wink
 * tags every "back" as an adverb, so the words around it decide. A condition word it matches is no
 * condition, for the aspects a clause names and for the words its polarity binds alike.
 */
export function adverbialBack(tokens: TokenTable, start: number, end: number): boolean {
  if (end - start !== 1 || tokens.normals[start] !== "back") return false;
  const before = tokens.pos[start - 1];
  return (before === "VERB" || before === "AUX") && tokens.pos[start + 1] !== "NOUN";
}
/** Whether a condition term at `start`…`end` is none here: "back" as an adverb, "lie down" on the table (lying-down.ts). */
export const noCondition = (tokens: TokenTable, start: number, end: number) =>
  adverbialBack(tokens, start, end) || lyingOnTheTable(tokens, start, end);

/**
 * Whether tokens `start`…`end` are "out of the way" after "go" ("went out of the way to fit me in"):
 * going to trouble for someone, not a place out of the way.
 */
function goesOutOfTheWay(tokens: TokenTable, start: number, end: number): boolean {
  return tokens.lemmas[start - 1] === "go" && tokens.normals.slice(start, end).join(" ") === "out of the way";
}

/** Verbs after which "a lot" is a parking lot: "they share a lot with a nail salon". */
const LOT_SHARED = new Set(["share", "shares", "shared", "sharing"]);
/** Words after "a lot" that place it: "a lot behind the building", "a lot across the street". */
const LOT_PLACED = new Set(["behind", "beside", "next", "across", "opposite", "around", "out", "outside", "adjacent"]);
/** Owners after the placing word, which place a body part, not a lot: "across my shoulders". */
const OWNED = new Set(["my", "his", "her", "their", "our", "your"]);

/**
 * Whether tokens `start`…`end` are the "lot" of "a lot" or "lots of", an amount ("it helped a lot",
 * "improved a lot", "meant a lot to me", "lots of questions"), not a parking lot; "they share a lot
 * with the bank" and "a lot behind the building" still name one.
 */
function aLot(tokens: TokenTable, start: number, end: number): boolean {
  const { normals } = tokens;
  if (end - start !== 1) return false;
  if (normals[start] === "lots") return normals[end] === "of";
  if (normals[start] !== "lot" || normals[start - 1] !== "a") return false;
  // "it hurt a lot across my shoulders": where the body hurt, not where a lot is.
  const placed = LOT_PLACED.has(normals[end] as string) && !OWNED.has(normals[end + 1] as string);
  return !LOT_SHARED.has(normals[start - 2] as string) && !placed;
}

/** What follows "at the front" when it is a place, not the front desk: "at the front door", "at the front of the line". */
const FRONT_OF = new Set(["of", "door", "doors", "entrance", "steps", "step", "row", "porch", "gate"]);

/** What stands "at the front" as a place: "parking at the front", "a bench at the front". */
const PLACED_AT_FRONT = new Set(
  "parking spots spaces space lot bench benches sign signs ramp rack racks bins".split(" "),
);

/**
 * Whether tokens `start`…`end` are "at the front" of something ("waited at the front door"): a
 * place, not the people at the front desk ("the girl at the front").
 */
function frontOfSomething(tokens: TokenTable, start: number, end: number): boolean {
  const { normals } = tokens;
  if (normals.slice(start, end).join(" ") !== "at the front") return false;
  // "Parking at the front is a nightmare": a thing placed there, not someone sitting there.
  return FRONT_OF.has(normals[end] as string) || PLACED_AT_FRONT.has(normals[start - 1] as string);
}

/** What a wait for a result asks after: "to see if it helps", "and see how it goes". */
const ASKED_AFTER = new Set(["if", "whether", "how", "what"]);
/**
 * Whether tokens `start`…`end` are a wait for how something turns out ("still waiting to see if the
 * adjustments do anything", "I'll wait and see"), not a wait at the office. A condition word it
 * matches is no condition, for the aspects a clause names and for the words its polarity binds alike.
 */
export function awaitsResult(tokens: TokenTable, start: number, end: number): boolean {
  const { normals, lemmas, words } = tokens;
  if (end - start !== 1 || lemmas[start] !== "wait") return false;
  const link = normals[end] as string;
  if (link !== "to" && link !== "and" && link !== "n") return false;
  let k = end + 1;
  if (normals[k] === "find" && normals[k + 1] === "out") k++;
  else if (normals[k] !== "see") return false;
  // "wait and see." ends there; "waiting to see the doctor" is a wait at the office.
  return ASKED_AFTER.has(normals[k + 1] as string) || !words[k + 1];
}

/** Parts of speech of a mention that names someone: "the doctor", "Dr. Patel", "him". */
const PERSON = new Set(["NOUN", "PROPN", "PRON"]);

/**
 * The clause's aspect mentions, less a one-word adjective term of another aspect ("friendly",
 * "rude": the front desk's) where the clause names the practitioner (`practitioner`, the aspect of
 * technician names) and no one of that other aspect: "The doctor is friendly" judges the doctor. The
 * adjective then counts as the opinion word it is, for the practitioner it stands beside.
 */
function judgingPractitioner(clause: Clause, practitioner: number, mentions: AspectSpan[]): AspectSpan[] {
  const { pos } = clause.tokens;
  const names = (m: AspectSpan) => !m.condition && PERSON.has(pos[m.end - 1] as string);
  if (practitioner < 0 || !mentions.some((m) => m.aspect === practitioner && names(m))) return mentions;
  return mentions.filter(
    (m) =>
      m.aspect === practitioner ||
      m.condition ||
      m.end - m.start !== 1 ||
      pos[m.start] !== "ADJ" ||
      mentions.some((o) => o.aspect === m.aspect && names(o)),
  );
}

const BOOKING = new Set(["book"]);

/**
 * The aspect mentions of a clause: each aspect's terms, its neutral terms and, for the aspect with
 * `technician_names`, the practitioners' names and aliases; then the conditions of sentiment.yaml,
 * each mentioning its aspect. Groups: 3i aspect i's terms, 3i+1 its neutral terms, 3i+2 the names;
 * conditions follow, one group per entry.
 */
export function compileMentions(
  aspects: readonly AspectDefinition[],
  conditions: SentimentLexicon["conditions"],
  technicians: readonly { name: string; aliases: readonly string[] }[],
  termForms: (term: string) => TermForms,
): (clause: Clause) => AspectSpan[] {
  const names = technicians.flatMap((t) => [t.name, ...t.aliases]);
  const matcher = compileTerms(
    [
      ...aspects.flatMap((a) => [a.terms, a.neutral_terms, [...(a.technician_names ? names : []), ...a.given_names]]),
      ...conditions.map((c) => c.terms),
    ],
    termForms,
  );
  const conditionAspect = conditions.map((c) => aspects.findIndex((a) => a.id === c.aspect));
  const practitioner = aspects.findIndex((a) => a.technician_names);
  const givenNames = aspects.map((a) => new Set(a.given_names.map((n) => n.toLowerCase())));
  const technicianWords = new Set(names.flatMap((n) => n.toLowerCase().split(/[\s.]+/)));
  return (clause) => {
    const { normals, lemmas, pos } = clause.tokens;
    const spans = matcher.spans(clause);
    const conditionOf = (m: TermMatch) => conditionAspect[m.group - 3 * aspects.length] ?? -1;
    // "my SI joint is the whole reason I booked", "I'd booked because my spine ached": the booking
    // told with why the patient came is the story, not how the practice books.
    const toldWhy = (m: TermMatch) =>
      patientsAct(normals, lemmas, pos, m.start, clause.start, BOOKING) &&
      spans.some((c) => conditionOf(c) >= 0 && conditionOf(c) !== Math.floor(m.group / 3));
    const givenName = (m: TermMatch) =>
      m.group % 3 === 2 &&
      m.group < 3 * aspects.length &&
      givenNames[Math.floor(m.group / 3)]?.has(normals[m.start] as string) === true;
    // A given name that is a word of a technician's name ("Marcus" of Dr. Marcus Bell) may be theirs.
    const notSomeoneOfTheOffice = (m: TermMatch) =>
      givenName(m) &&
      (technicianWords.has(normals[m.start] as string) ||
        !namesSomeoneOfTheOffice(clause.tokens, m.start, clause.start));
    return judgingPractitioner(
      clause,
      practitioner,
      spans.flatMap((m) => {
        const k = m.group - 3 * aspects.length;
        if (notSomeoneOfTheOffice(m)) return [];
        if (k >= 0 && noCondition(clause.tokens, m.start, m.end)) return [];
        if (goesOutOfTheWay(clause.tokens, m.start, m.end) || awaitsResult(clause.tokens, m.start, m.end)) return [];
        if (frontOfSomething(clause.tokens, m.start, m.end) || aLot(clause.tokens, m.start, m.end)) return [];
        // "an appointment I had cancelled": what the patient did, not how the practice books.
        if (m.end - m.start === 1 && (patientsAct(normals, lemmas, pos, m.start, clause.start) || toldWhy(m)))
          return [];
        // Only an aspect's own terms let a clause without polar words take the rating's side: a
        // condition or neutral term says why someone came, a name alone says who was there.
        return k >= 0
          ? {
              aspect: conditionAspect[k] as number,
              start: m.start,
              end: m.end,
              weak: conditions[k]?.needs_evidence ?? false,
              condition: true,
            }
          : {
              aspect: Math.floor(m.group / 3),
              start: m.start,
              end: m.end,
              weak: false,
              condition: m.group % 3 !== 0,
              ...(givenName(m) ? { person: true } : {}),
            };
      }),
    );
  };
}
