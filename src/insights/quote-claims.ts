import type { Clause } from "./nlp.ts";
import type { AspectReading } from "./readings.ts";

/**
 * Whether a clause's reading is a claim the writer makes, so that it may be quoted as their praise
 * or complaint (annotate.ts, `confident`). The reading still counts when it is not; only the quote
 * is withheld, since a sentence shown "in their words" must say what it is shown for.
 */

/** A credited word without its sign ("finally+" → "finally"), lower-cased. */
const bare = (word: string) => word.slice(0, -1).toLowerCase();

/** Verbs of a body giving way, by lemma; a particle after some makes them so ("gave out", "went out"). */
const GIVING_WAY = new Set(["quit", "break", "snap", "collapse", "seize", "crash", "flare", "buckle", "fail", "die"]);
const GIVING_WAY_WITH: Record<string, readonly string[]> = {
  give: ["out", "up", "way", "in"],
  go: ["out"],
  lock: ["up"],
};

/**
 * "finally" is a good outcome in sentiment.yaml ("my neck finally moves"), but before a verb of
 * giving way it tells how the story began: "my lower back finally quit", "my back finally gave out".
 * A reading whose praise rests on such a "finally" alone is no quote.
 */
function finallyGaveWay(clause: Clause, r: AspectReading): boolean {
  const praise = r.words.filter((w) => w.endsWith("+"));
  if (r.score <= 0 || praise.length === 0 || praise.some((w) => bare(w) !== "finally")) return false;
  const { normals, lemmas, pos } = clause.tokens;
  for (let i = clause.start; i < clause.end; i++) {
    if (normals[i] !== "finally") continue;
    const verb = [i + 1, i + 2].find((k) => k < clause.end && pos[k] === "VERB");
    if (verb === undefined) continue;
    const lemma = lemmas[verb] as string;
    if (GIVING_WAY.has(lemma) || GIVING_WAY_WITH[lemma]?.includes(normals[verb + 1] as string)) return true;
  }
  return false;
}

/** Where a clause's words end a governing word's reach. */
const SCOPE_END = new Set([",", ";", ":", ".", "!", "?", "—", "(", ")"]);
/** Marks that close a condition inside its sentence. */
const INNER_STOPS = new Set([",", ";", ":", "—"]);
/** Verbs a conditional wishes with, by lemma: "would love", "'d like", "would be nice", "might have". */
const WISHED = new Set(["love", "like", "be", "appreciate", "prefer", "enjoy", "have"]);

/** Token indexes of the clause holding a word credited to `r`, of the sign given ("+" or "-"). */
function credited(clause: Clause, r: AspectReading, sign: "+" | "-"): number[][] {
  const { values } = clause.tokens;
  return r.words
    .filter((w) => w.endsWith(sign))
    .map((w) => {
      const at: number[] = [];
      for (let i = clause.start; i < clause.end; i++) if (values[i] === w.slice(0, -1)) at.push(i);
      return at;
    });
}

/** What the writer "never thought" would be came true: "Never thought I'd be pain-free again". */
const DOUBTED = new Set(["think", "imagine", "dream", "expect", "believe"]);

/**
 * The tokens of a clause that tell what would be, not what is: from the verb a conditional wishes
 * with ("would love", "it'd be great", "would be fine if…"; not "wouldn't", not "would recommend")
 * to the next punctuation mark, and the condition an opening "if" sets up to its comma ("If I
 * wanted to see Dr. Hughes specifically, I'd have to wait"; not "if only", a wish read as a lack).
 */
function hypotheticals(clause: Clause): Uint8Array {
  const { normals, lemmas, pos } = clause.tokens;
  const out = new Uint8Array(clause.end - clause.start);
  if (normals[clause.start] === "if" && normals[clause.start + 1] !== "only") {
    const comma = normals.findIndex((n, k) => k > clause.start && k < clause.end && INNER_STOPS.has(n));
    for (let k = clause.start; k < comma; k++) out[k - clause.start] = 1;
  }
  for (let i = clause.start; i < clause.end; i++) {
    if (normals[i] !== "would" && normals[i] !== "might") continue;
    const before = normals.slice(Math.max(clause.start, i - 4), i);
    if (before.includes("never") && lemmas.slice(Math.max(clause.start, i - 4), i).some((l) => DOUBTED.has(l)))
      continue;
    let j = i + 1;
    while (j < clause.end && pos[j] === "ADV") j++;
    if (j >= clause.end || !WISHED.has(lemmas[j] as string)) continue;
    for (let k = j; k < clause.end && !SCOPE_END.has(normals[k] as string); k++) out[k - clause.start] = 1;
  }
  return out;
}

/**
 * Praise all of whose words stand in a hypothetical: "Would love later hours", "It would be great if
 * they had evening appointments", "which would be fine if I weren't kept waiting half an hour" say
 * what the writer lacks, not what they found.
 */
function praiseOnlyWished(clause: Clause, r: AspectReading): boolean {
  if (r.score <= 0) return false;
  const words = credited(clause, r, "+");
  if (words.length === 0) return false;
  const wished = hypotheticals(clause);
  return words.every((at) => at.length > 0 && at.every((i) => wished[i - clause.start] === 1));
}

/** Whether the writer claims what `r` read in `clause` (see above). */
export function writersClaim(clause: Clause, r: AspectReading): boolean {
  return !finallyGaveWay(clause, r) && !praiseOnlyWished(clause, r);
}
