import type { Sentiment } from "../content/records.ts";
import { contrastOpening } from "./clause-cuts.ts";
import { mayReferElsewhere } from "./constructions.ts";
import type { Clause } from "./nlp.ts";
import { polarity } from "./numbers.ts";
import { quotedTokens } from "./quoted.ts";
import type { AspectMention, AspectReading } from "./readings.ts";

/**
 * Which clause stands for a review's reading of an aspect: the sentence an evidence page shows for
 * the review, and the sentence the home page may quote. A quote is a public claim ("patients say
 * this"), so it needs more than the count does: every reader of the review must agree with it.
 */

/** A sentence of a review and, within it, the clause that was read (character offsets). */
export interface CountedSentence {
  sentence: string;
  span: [start: number, end: number];
}

/**
 * Whether a clause's reading is explicit evidence a visitor may be shown (`AspectMention.confident`,
 * before the rating's tie-break): a polar word of the clause, not a contrast or the models' reading,
 * not doubted by the models, and more than a noun of wink's lexicon in a compound. A clause that
 * names no aspect and takes the clause before's (`borrowed`) needs one of the project's own words
 * and nothing that may point at someone else ("…, but I'm tired of catching their mistakes").
 * Where `symptoms` (an aspect named by conditions, not by practitioners' names), a clause naming it
 * only by a condition tells why someone came: wink's general words there describe the symptom or
 * the story ("figured I was fine until…"), so only the project's own words make it a quote.
 */
export function explicitEvidence(r: AspectReading, borrowed?: Clause, symptoms = false): boolean {
  if (!r.polar || r.inferred || r.disputed || r.wink === "names" || r.score === 0) return false;
  if (symptoms && r.byCondition && r.wink !== undefined) return false;
  return borrowed === undefined || (r.wink === undefined && !mayReferElsewhere(borrowed));
}

/**
 * What may close a question after its mark: "(was it worth it?)", a stray mark. Not "!": "who
 * knew?!", "who DOES that anymore?!" exclaim what they assert.
 */
const AFTER_QUESTION = new Set([")", '"', "”"]);

/**
 * Whether a clause asks a question: it asserts nothing a visitor could be shown as what patients
 * say, nor a side for the rating to take. A question mark inside a quotation is someone else's
 * ("she asked \"have you paid?\""), so the clause around it still asserts.
 */
export function asksQuestion(clause: Clause): boolean {
  const { normals } = clause.tokens;
  let k = clause.end - 1;
  while (k > clause.start && AFTER_QUESTION.has(normals[k] as string)) k--;
  return normals[k] === "?" && !quotedTokens(clause.tokens)[k];
}

/** Words that open a question: "why are…", "how can…" (an auxiliary first does too: "is it…", "was the price…"). */
const INTERROGATIVES = new Set(["why", "how", "what", "who", "whom", "whose", "where", "when", "which"]);
/** What may come before a clause's first word: the conjunction it was cut at, punctuation. */
const LEAD = new Set(["CCONJ", "SCONJ", "ADP", "PUNCT"]);

/** Whether a clause opens a question: its first word, after the conjunction it was cut at, asks. */
function opensQuestion({ tokens, start, end }: Clause): boolean {
  let k = start;
  while (k < end && (LEAD.has(tokens.pos[k] as string) || !tokens.words[k])) k++;
  return k < end && (tokens.pos[k] === "AUX" || INTERROGATIVES.has(tokens.normals[k] as string));
}

/**
 * The clauses (indexes into `clauses`) that a question spans. A sentence that ends asking
 * (`asksQuestion`) asks back to the clause that opens the question, all of it when none does:
 * "Why are the staff so friendly but the billing such a mess?" asserts no praise, while in "Dr.
 * Patel is great, but is the billing office ever going to answer?" the question opens at "is".
 */
export function questionClauses(clauses: readonly Clause[]): Set<number> {
  const asking = new Set<number>();
  clauses.forEach((clause, last) => {
    const next = clauses[last + 1];
    if (next?.sentenceIndex === clause.sentenceIndex || !asksQuestion(clause)) return;
    for (let k = last; k >= 0 && (clauses[k] as Clause).sentenceIndex === clause.sentenceIndex; k--) {
      asking.add(k);
      if (opensQuestion(clauses[k] as Clause)) break;
    }
  });
  return asking;
}

/**
 * A span in single quotation marks: a mark that no letter or digit precedes (not the apostrophe of
 * "doctors'" or "it's"), words, and a mark that none follows. `quotedTokens` (quoted.ts) reads double
 * marks only, since a single one is more often an apostrophe.
 */
const SINGLE_QUOTED = /(?<![\p{L}\p{N}])['‘](?=\S)[^'‘’"“”]{1,120}?(?<=\S)['’](?![\p{L}\p{N}])/gu;

/**
 * Whether a word the reading credits stands only in single quotation marks in the clause: someone
 * else's words ("My friend said 'Dr. Patel is amazing'"), which the writer reports, not says.
 */
export function inOthersWords(text: string, r: Pick<AspectReading, "words">): boolean {
  const quoted = text.match(SINGLE_QUOTED);
  if (!quoted || r.words.length === 0) return false;
  const rest = text.replace(SINGLE_QUOTED, " ");
  const has = (haystack: string, word: string) =>
    new RegExp(`(?<![\\p{L}\\p{N}])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}])`, "iu").test(
      haystack,
    );
  return r.words.some((w) => {
    const word = w.slice(0, -1);
    return quoted.some((q) => has(q, word)) && !has(rest, word);
  });
}

/**
 * Characters a quote shows at most, "…" included (aspect-stats.ts `excerpt`). A clause longer than
 * that is never quoted: no cut of it shows a visitor what it is quoted for.
 */
export const QUOTE_MAX = 300;

/** The side a quote is shown under. */
export type Side = "positive" | "negative";

/**
 * Whether clause `m` may be quoted as `side` (praise or complaint) from a review of `rating` stars:
 * the rules credited a polar word of the clause to the aspect (in a clause that names its own
 * aspects, and more than a noun of wink's general lexicon), the learned models (when the content
 * has them) read the same side and did not find the sentence to be about something else, the
 * rating did not break a tie, the clause asks no question (all five are `m.confident`, annotate.ts),
 * the clause leans `side`, and the rating does not say the opposite: no praise from a 1-2 star
 * review, no complaint from a 4-5 star one. Such a review still counts; only the quote is withheld.
 */
export function quotable(m: AspectMention, side: Side, rating: number): boolean {
  if (!m.confident || m.span[1] - m.span[0] > QUOTE_MAX - 2) return false;
  return side === "positive" ? m.score > 0 && rating >= 3 : m.score < 0 && rating <= 3;
}

/**
 * The clause of `mentions` (one review's, for one aspect) that most strongly says `sentiment`, the
 * review's reading of the aspect: the highest score for positive, the lowest for negative, the first
 * clause for neutral or, when no clause leans that way (the rating broke a tie, the review model read
 * the whole review), the first that does not lean the other way. Undefined when the review has no
 * such clause: a sentence of praise is no evidence of a complaint.
 */
export function countedMention(
  sentiment: Sentiment,
  mentions: readonly AspectMention[],
  keep: (m: AspectMention) => boolean = () => true,
): AspectMention | undefined {
  // `keep` is asked last, of a clause that would otherwise be chosen: on an entity's page it asks
  // which entities a clause names, the costliest part of a rebuild's counted sentences.
  let best: AspectMention | undefined;
  for (const m of mentions) {
    if (
      (sentiment === "positive"
        ? m.score > (best?.score ?? 0)
        : sentiment === "negative" && m.score < (best?.score ?? 0)) &&
      keep(m)
    )
      best = m;
  }
  if (best) return best;
  const against = sentiment === "positive" ? "negative" : sentiment === "negative" ? "positive" : undefined;
  return mentions.find((m) => (against === undefined || polarity(m.score) !== against) && keep(m));
}

/** Keeps the clauses that lean `sentiment`'s way (read neutral, for neutral): an editor's label is
 * only shown with a sentence that says it. */
export function leansTo(sentiment: Sentiment): (m: AspectMention) => boolean {
  if (sentiment === "neutral") return (m) => polarity(m.score) === "neutral";
  return sentiment === "positive" ? (m) => m.score > 0 : (m) => m.score < 0;
}

/** The quote for a review's reading of an aspect, if any clause may be quoted (`quotable`). */
export function quoteOf(
  sentiment: Sentiment,
  mentions: readonly AspectMention[],
  rating: number,
): AspectMention | undefined {
  if (sentiment === "neutral") return undefined;
  return countedMention(sentiment, mentions, (m) => quotable(m, sentiment, rating));
}

/**
 * "Dr. Lindqvist is good with his hands, but he talks down to you": a quote shows the whole
 * sentence, so where two clauses of a sentence are each quotable for an aspect on opposite sides,
 * only the side the sentence turns to (after "but", or beside a clause opening with "although")
 * stays a quote; without a turn neither does. Every clause still counts. A side that is no quote by
 * itself (someone else's words, a pronoun that may point at someone else) leaves the other its quote.
 * `clauseOf[i]` is the clause of `mentions[i]`.
 */
export function unquoteConceded(mentions: AspectMention[], clauseOf: readonly Clause[]): void {
  const groups = new Map<string, Said[]>();
  mentions.forEach((m, i) => {
    if (m.score === 0 || !m.confident) return;
    const said: Said = { m, clause: clauseOf[i] as Clause, side: Math.sign(m.score) };
    const key = `${m.sentenceIndex} ${m.aspect}`;
    const group = groups.get(key);
    if (group) group.push(said);
    else groups.set(key, [said]);
  });
  for (const group of groups.values()) {
    if (group.every(({ side }) => side === group[0]?.side)) continue;
    const point = sentencePoint(group);
    for (const { m, side } of group) if (side !== point) m.confident = false;
  }
}

/** A quotable clause's mention, its clause and its side. */
interface Said {
  m: AspectMention;
  clause: Clause;
  side: number;
}

/**
 * The side of the clause a sentence's readings turn to; 0 when none does. `said` is in token order,
 * as annotate.ts makes mentions clause by clause.
 */
function sentencePoint(said: readonly Said[]): number {
  let point = 0;
  said.forEach(({ clause, side }, n) => {
    const opens = contrastOpening(clause.tokens.normals, clause.start);
    const before = said[n - 1];
    const after = said[n + 1];
    if (opens === "turn" && before && before.side !== side) point = side;
    else if (opens === "concession" && n === 0 && after && after.side !== side) point = after.side;
    else if (opens === "concession" && before && before.side !== side) point = before.side;
  });
  return point;
}
