import { hypotheticals, reportedSpeech, SCOPE_END, toldAsPast } from "./claim-scopes.ts";
import { runsOnUnsplit } from "./missed-ends.ts";
import type { Clause } from "./nlp.ts";
import type { AspectReading } from "./readings.ts";

/**
 * Whether a clause's reading is a claim the writer makes, so that it may be quoted as their praise
 * or complaint (annotate.ts, `confident`). The reading still counts when it is not; only the quote
 * is withheld, since a sentence shown "in their words" must say what it is shown for.
 */

/** A credited word without its sign ("finally+" → "finally"), lower-cased. */
const bare = (word: string) => word.slice(0, -1).toLowerCase();

/**
 * Verbs of a body giving way or being worn down, by lemma; a word up to two after some makes them so
 * ("gave out", "went out", "caught up with me", "took its toll").
 */
const GIVING_WAY = new Set(["quit", "break", "snap", "collapse", "seize", "crash", "flare", "buckle", "fail", "die"]);
const GIVING_WAY_WITH: Record<string, readonly string[]> = {
  give: ["out", "up", "way", "in"],
  go: ["out"],
  lock: ["up"],
  catch: ["up"],
  take: ["toll"],
};

/** Whether the particle at `i` is of an idiom of pain gone, not of a body giving way: "went out the window". */
const idiomAt = (normals: readonly string[], i: number) =>
  normals[i] === "out" && normals[i + 1] === "the" && normals[i + 2] === "window";

/**
 * "finally" is a good outcome in sentiment.yaml ("my neck finally moves"), but in a clause that goes
 * on to a verb of giving way it tells how the story began: "my lower back finally quit", "my back
 * finally gave out", "Nine hours a day at a computer finally caught up with me", "My partner finally
 * booked me after my lower back locked up".
 * A reading whose praise rests on such a "finally" alone is no quote.
 */
function finallyGaveWay(clause: Clause, r: AspectReading): boolean {
  const praise = r.words.filter((w) => w.endsWith("+"));
  if (r.score <= 0 || praise.length === 0 || praise.some((w) => bare(w) !== "finally")) return false;
  const { normals, lemmas, pos } = clause.tokens;
  const givesWay = (verb: number) => {
    const lemma = lemmas[verb] as string;
    const after = GIVING_WAY_WITH[lemma] ?? [];
    return (
      GIVING_WAY.has(lemma) ||
      [1, 2].some((k) => after.includes(normals[verb + k] as string) && !idiomAt(normals, verb + k))
    );
  };
  const at = normals.slice(clause.start, clause.end).indexOf("finally");
  for (let k = clause.start + at + 1; at >= 0 && k < clause.end; k++) if (pos[k] === "VERB" && givesWay(k)) return true;
  return false;
}

/** Token indexes of the clause holding a word credited to `r`, of the sign given ("+" or "-"). */
function credited(clause: Clause, r: AspectReading, sign: "+" | "-"): number[][] {
  const { values } = clause.tokens;
  return r.words
    .filter((w) => w.endsWith(sign))
    .map((w) => {
      const word = w.slice(0, -1);
      const at: number[] = [];
      for (let i = clause.start; i < clause.end; i++) if (values[i] === word) at.push(i);
      return at;
    });
}

/**
 * Where each word of praise credited to `r` stands in `clause`, when `r` is praise and every such
 * word stands there; else undefined, and no check of where praise stands applies.
 */
type Praise = readonly number[][];
function locatedPraise(clause: Clause, r: AspectReading): Praise | undefined {
  if (r.score <= 0) return undefined;
  const praise = credited(clause, r, "+");
  return praise.length > 0 && praise.every((at) => at.length > 0) ? praise : undefined;
}

/** Whether every word of `praise`, each place it stands, is `inScope`. */
const praiseAllWhere = (praise: Praise, inScope: (i: number) => boolean) => praise.every((at) => at.every(inScope));

/**
 * Praise all of whose words stand in a hypothetical: "Would love later hours", "It would be great if
 * they had evening appointments", "which would be fine if I weren't kept waiting half an hour" say
 * what the writer lacks, not what they found.
 */
function praiseOnlyWished(clause: Clause, praise: Praise): boolean {
  const wished = hypotheticals(clause);
  return praiseAllWhere(praise, (i) => wished[i - clause.start] === 1);
}

/**
 * Praise all of whose words someone else said: "My friend told me Dr. Patel is amazing",
 * "According to my neighbour, the front desk is lovely" report praise, they do not give it
 * (quotes.ts `inOthersWords` does the same for words in single quotation marks).
 */
function praiseOnlyReported(clause: Clause, praise: Praise): boolean {
  const reported = reportedSpeech(clause);
  return praiseAllWhere(praise, (i) => reported[i - clause.start] === 1);
}

/** Negators the reading does not turn by, each word alone or before the next: "hardly", "far from". */
const UNREAD_NEGATORS = new Set(["hardly", "scarcely", "barely", "rarely", "seldom"]);
const UNREAD_NEGATOR_PAIRS: Record<string, string> = { far: "from", nowhere: "near", no: "longer" };
/** How far after such a negator a word may stand in its reach: "far from what I'd call clean". */
const NEGATOR_REACH = 5;

/** Where the reach of a negator the reading does not turn by starts at token `i`, or -1. */
function unreadNegatorAt(clause: Clause, i: number): number {
  const { normals, lemmas } = clause.tokens;
  const n = normals[i] as string;
  if (UNREAD_NEGATORS.has(n)) return i + 1;
  if (UNREAD_NEGATOR_PAIRS[n] === normals[i + 1] || (lemmas[i] === "fail" && normals[i + 1] === "to")) return i + 2;
  return -1;
}

/**
 * A reading with a word of its side in the reach of a negator the rules do not turn by ("The
 * office is far from clean", "The staff are rarely friendly", "The front desk failed to be helpful",
 * "no longer as gentle", "hardly rude"): the reading may be right by other words, but the sentence
 * may say the opposite of what it would be quoted for. A negator the reading credited to its side
 * was read ("I hardly notice my back pain anymore": an outcome of sentiment.yaml).
 */
function turnedUnread(clause: Clause, r: AspectReading): boolean {
  const { normals, values } = clause.tokens;
  const sign = r.score > 0 ? "+" : "-";
  const own = credited(clause, r, sign);
  if (own.every((at) => at.length === 0)) return false;
  const read = new Set(r.words.filter((w) => w.endsWith(sign)).map((w) => w.slice(0, -1)));
  const reach = new Uint8Array(clause.end - clause.start);
  for (let i = clause.start; i < clause.end; i++) {
    const from = unreadNegatorAt(clause, i);
    if (from < 0 || read.has(values[i] as string)) continue;
    let until = Math.min(clause.end, from + NEGATOR_REACH);
    for (let k = from; k < until; k++) {
      if (SCOPE_END.has(normals[k] as string)) break;
      reach[k - clause.start] = 1;
      // "could barely get out of bed without my hips screaming": the rules turn what "without"
      // governs, not back again, so the reach goes on through it.
      if (normals[k] === "without") until = clause.end;
    }
  }
  return own.some((at) => at.some((i) => reach[i - clause.start] === 1));
}

/** How far from "mixed" a word it qualifies may stand: "Mixed results", "the results were mixed". */
const MIXED_REACH = 3;

/**
 * A verdict the writer calls mixed is neither praise nor complaint: "Mixed results for my sciatica"
 * (a title in the sample content) had its "results" quoted as praise of pain relief.
 */
function saidMixed(clause: Clause, r: AspectReading): boolean {
  const { normals } = clause.tokens;
  const near = (i: number, m: number) => {
    const [a, b] = i < m ? [i, m] : [m, i];
    return b - a <= MIXED_REACH && normals.slice(a, b).every((n) => !SCOPE_END.has(n));
  };
  const mixed: number[] = [];
  for (let m = clause.start; m < clause.end; m++) if (normals[m] === "mixed") mixed.push(m);
  if (mixed.length === 0) return false;
  return credited(clause, r, r.score > 0 ? "+" : "-").some((at) => at.some((i) => mixed.some((m) => near(i, m))));
}

/**
 * Praise that rests only on "kind" or "sort" naming a type ("not a "do your exercises" kind of
 * kid", in the sample content), which wink's lexicon reads as kindness.
 */
function praiseOnlyAType(clause: Clause, praise: Praise): boolean {
  const { normals } = clause.tokens;
  return praiseAllWhere(praise, (i) => (normals[i] === "kind" || normals[i] === "sort") && normals[i + 1] === "of");
}

/** What "if you …" a sarcastic tag likes: "Great if you enjoy hold music". */
const LIKING = new Set(["enjoy", "like", "love", "want", "prefer"]);

/**
 * Praise its own clause takes back at its end: "if you enjoy…" ("Such a relaxing waiting room, if
 * you enjoy jackhammers", sarcasm the reading misses) and a closing "not" ("The front desk was super
 * helpful... not."; a complaint before one, "would get my neck yanked again... NOT", was read right).
 */
function takenBack(clause: Clause, r: AspectReading): boolean {
  if (r.score <= 0) return false;
  const { normals, lemmas, words } = clause.tokens;
  let last = clause.end - 1;
  while (last > clause.start && !words[last]) last--;
  if (normals[last] === "not" && last > clause.start && !words[last - 1]) return true;
  for (let i = clause.start + 1; i + 2 < clause.end; i++) {
    const you = normals[i + 1] === "you" || normals[i + 1] === "u";
    if (normals[i] === "if" && you && LIKING.has(lemmas[i + 2] as string)) return true;
  }
  return false;
}

/**
 * Praise of what was done, told as coming at last, after a wait: "They finally got me in after I
 * called five times", "The front desk finally called me back after a week". The praised act came
 * late, which is the complaint. Only acts (verbs): "Finally some relief after years of suffering"
 * is an outcome, as is any reading of "finally" itself ("I finally got relief after years of pain"),
 * and without "after" a search ended well ("Finally found a chiropractor who listens").
 */
function praiseCameLate(clause: Clause, r: AspectReading, praise: Praise): boolean {
  if (r.words.some((w) => bare(w) === "finally")) return false;
  const { normals, pos } = clause.tokens;
  const inClause = (n: string) => normals.slice(clause.start, clause.end).indexOf(n);
  const at = inClause("finally");
  if (at < 0 || inClause("after") < 0) return false;
  return praiseAllWhere(praise, (i) => i > clause.start + at && pos[i] === "VERB");
}

/**
 * Praise all of whose words tell of a past the review may be complaining has gone: "The staff were
 * once lovely", "Parking used to be easy before the construction", "Dr. Patel was great in the
 * beginning". Not where the past is the reading's own word ("I used to have constant back pain").
 */
function praiseOfThePast(clause: Clause, r: AspectReading, praise: Praise): boolean {
  if (r.words.some((w) => ["used", "once"].includes(bare(w)))) return false;
  const past = toldAsPast(clause);
  return praiseAllWhere(praise, (i) => past[i - clause.start] === 1);
}

/** Whether the writer claims what `r` read in `clause` (see above). */
export function writersClaim(clause: Clause, r: AspectReading): boolean {
  // Where the praise stands is found once; without it none of the checks of its scope applies.
  const praise = locatedPraise(clause, r);
  return (
    !finallyGaveWay(clause, r) &&
    !(
      praise &&
      (praiseCameLate(clause, r, praise) ||
        praiseOfThePast(clause, r, praise) ||
        praiseOnlyWished(clause, praise) ||
        praiseOnlyReported(clause, praise) ||
        praiseOnlyAType(clause, praise))
    ) &&
    !turnedUnread(clause, r) &&
    !saidMixed(clause, r) &&
    !takenBack(clause, r) &&
    !runsOnUnsplit(clause)
  );
}
