import type { Clause } from "./nlp.ts";

/**
 * A clause that turns to the rest ("but everything else was lovely", "otherwise a fine visit",
 * "other than that it was great") speaks of all the clause before it did not name, and one that weighs
 * the whole against it ("but so worth it") of the whole: it borrows none of that clause's aspects,
 * whose reading stays the clause before's own.
 */

/** Pronouns that keep the clause on whom the clause before named: "otherwise she's lovely". */
const SAME_ONE = new Set(["he", "she", "him", "her", "they", "them", "his", "their"]);
/** Whom "otherwise" warns, in its sense of "or else": "book early, otherwise you'll wait weeks". */
const WARNED = new Set(["you", "u", "i", "we"]);
/** Words after "other than", "apart from", "aside from" or "besides" that point back: "other than that". */
const BACK = new Set(["that", "this", "those", "these"]);

/** Whether the clause turns from what the clause before named to everything else. */
export function turnsToTheRest(clause: Clause): boolean {
  const { normals } = clause.tokens;
  const words = normals.slice(clause.start, clause.end);
  if (words.some((w) => SAME_ONE.has(w))) return false;
  return words.some((w, k) => {
    const next = words[k + 1] ?? "";
    if (w === "otherwise") return !WARNED.has(next);
    if (w === "else") return k > 0 && (words[k - 1] === "everything" || words[k - 1] === "all");
    // "the rest was great", "the rest of the staff"; not "the rest of the time", still whoever it was.
    if (w === "rest") return k > 0 && words[k - 1] === "the" && !(next === "of" && words[k + 3] === "time");
    if (w === "than" || w === "from") return BACK.has(next) && ["other", "apart", "aside"].includes(words[k - 1] ?? "");
    // "a 35 min drive but SO worth it", "but it's worth it": the whole weighed against the drawback.
    if (w === "worth") return next === "it" && k + 2 === words.filter((x) => x !== ".").length;
    return w === "besides" && BACK.has(next);
  });
}
