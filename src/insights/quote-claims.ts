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

/** Whether the writer claims what `r` read in `clause` (see above). */
export function writersClaim(clause: Clause, r: AspectReading): boolean {
  return !finallyGaveWay(clause, r);
}
