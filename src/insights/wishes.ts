/**
 * A wish for better reads as a complaint about what is: "could be a little more welcoming", "could
 * use a good cleaning", "could be friendlier", "should have been clearer". polarity.ts flips the
 * opinion words a wish governs, as a negator's, so the clause says the opposite of its opinion word.
 * "Couldn't be friendlier" is no wish: a negated modal is read as praise there.
 */

/** Comparatives that are not `-er` forms of their lemma; "enough" as in "can't say enough". */
const COMPARATIVES = new Set(["better", "more", "happier", "nicer", "enough"]);

export const isComparative = (normal: string, lemma: string) =>
  COMPARATIVES.has(normal) || (normal !== lemma && /(?:er|ier)$/.test(normal));

const WISHING = new Set(["could", "should"]);
/** Hedges a wish may put between its modal and the rest: "could perhaps be warmer", "could really use". */
const HEDGES = new Set([
  "perhaps",
  "maybe",
  "possibly",
  "probably",
  "really",
  "definitely",
  "certainly",
  "honestly",
  "seriously",
  "still",
  "also",
  "just",
]);
/** How far after the modal a wished-for comparative may stand: "could be a little bit more". */
const REACH = 5;
const STOPS = new Set([",", ";", ":", ".", "!", "?", "and", "but", "—", "(", ")"]);

/**
 * Where the wish at token `i` starts to govern (polarity.ts flips the opinion words after the index
 * returned, and zeroes the token at it), or -1 when `i` opens no wish. A hedge may follow the modal
 * ("could perhaps be"). "could use" and "could do with": after "use" or "with";
 * "could/should be" or "have been", then "more" or "less": after that word; then a comparative
 * opinion word itself ("friendlier", "clearer", "better"): the word before it, so the word is flipped.
 */
export function wishAt(normals: readonly string[], lemmas: readonly string[], i: number, end: number): number {
  // "wish the visits were cheaper", "I wish they were more organised": a wished-for comparative; so
  // is the condition for more ("would be 5 stars if they were clearer", "if only it were closer").
  const condition = normals[i] === "if" && (normals[i + 1] === "only" || wouldBeBefore(normals, i) >= 0);
  if (normals[i] === "wish" || condition) {
    for (let k = i + 1; k < Math.min(end, i + 1 + REACH) && !STOPS.has(normals[k] as string); k++) {
      if (BEING.has(normals[k] as string)) return wishedComparative(normals, lemmas, k + 1, k + 1 + REACH, end);
    }
    return -1;
  }
  if (!WISHING.has(normals[i] as string)) return -1;
  // "wish I could say the same for my results": what follows "same" is what fell short.
  if (normals[i - 2] === "wish" && normals[i + 1] === "say" && normals[i + 2] === "the" && normals[i + 3] === "same")
    return i + 3;
  const m = HEDGES.has(normals[i + 1] as string) ? i + 1 : i;
  if (normals[m + 1] === "use") return m + 1;
  if (normals[m + 1] === "do" && normals[m + 2] === "with") return m + 2;
  let from = m + 2;
  if (normals[m + 1] === "have" && normals[m + 2] === "been") from = m + 3;
  // "could crack a smile once in a while", "should answer the phone for once": what is done too rarely.
  // Not the reader's or the patient's deed: "everyone should get adjusted once in a while" advises.
  else if (normals[m + 1] !== "be")
    return !ADVISED.has(normals[i - 1] as string) && RARELY.test(normals.slice(m + 1, end).join(" ")) ? m : -1;
  return wishedComparative(normals, lemmas, from, m + 1 + REACH, end);
}

const BEING = new Set(["was", "were", "be", "been"]);
/** Who a "should … once in a while" advises rather than faults. */
const ADVISED = new Set(["i", "we", "you", "everyone", "everybody", "anyone", "people", "y'all"]);
const RARELY = /\b(?:once in a while|once and a while|for once|now and then|now and again)\b/;

/** "would" and its short form. */
export const WOULD = new Set(["would", "'d"]);

/** Where the nearest "would" stands within the few words before `i`, not before `from`, or -1. */
export function wouldAt(normals: readonly string[], i: number, from = 0): number {
  for (let k = i - 1; k >= Math.max(from, i - 7); k--) if (WOULD.has(normals[k] as string)) return k;
  return -1;
}

/** Where "would be" or "would have been" stands within the few words before "if" at `i`, or -1; not before "even if". */
function wouldBeBefore(normals: readonly string[], i: number): number {
  const k = normals[i - 1] === "even" ? -1 : wouldAt(normals, i);
  if (k < 0) return -1;
  const next = normals[k + 1] === "have" || normals[k + 1] === "'ve" ? k + 2 : k + 1;
  return normals[next] === "be" || normals[next] === "been" ? k : -1;
}

/** Where "would" or "'d", not negated, stands within the few words before "if" at `i`, or -1; not before "even if". */
function wouldBefore(normals: readonly string[], i: number): number {
  const k = normals[i - 1] === "even" ? -1 : wouldAt(normals, i);
  return k < 0 || normals[k + 1] === "not" ? -1 : k;
}

/** Forms a condition contrary to fact denies with: "if it wasn't", "if they didn't", "if I hadn't". */
const UNREAL = new Set(["was", "were", "did", "had", "could"]);

/** Whether the condition after "if" at `i` denies with a form contrary to fact ("if it wasn't so expensive"). */
function deniesUnreally(normals: readonly string[], i: number, end: number): boolean {
  for (let p = i + 2; p < Math.min(end, i + 1 + IF_REACH); p++) {
    if (normals[p] === "not" && UNREAL.has(normals[p - 1] as string)) return true;
  }
  return false;
}

/**
 * Tokens of the clause `start`…`end` praising what "would be" ("would be five stars if…", "would
 * have been perfect if…"), or what the writer would do were it not for a fault ("I would go back if
 * it wasn't so expensive"): said of what is not, they praise nothing. [from, to), or an empty range.
 */
export function hypothetical(normals: readonly string[], start: number, end: number): [number, number] {
  for (let i = start; i < end; i++) {
    if (normals[i] !== "if") continue;
    const k = wouldBeBefore(normals, i);
    if (k >= start) return [k, i];
    const w = wouldBefore(normals, i);
    if (w >= start && deniesUnreally(normals, i, end)) return [w, i];
  }
  return [start, start];
}

/** How far after "if" a negator may stand and still be the condition's own ("if the front desk wasn't so rude"). */
const IF_REACH = 6;

/**
 * Whether the negator at `p` is the condition's own in the `hypothetical` range `wouldBeIf`: what
 * "would be fine if I weren't kept waiting" denies is what is, so it turns nothing.
 */
export function conditionDenies([wouldBe, ifAt]: readonly [number, number], p: number): boolean {
  return ifAt > wouldBe && p > ifAt && p - ifAt <= IF_REACH;
}

/** The wish's reach from `from` (before `reach`): "more" or "less", else the word before a comparative. */
function wishedComparative(
  normals: readonly string[],
  lemmas: readonly string[],
  from: number,
  reach: number,
  end: number,
): number {
  for (let k = from; k < Math.min(end, reach); k++) {
    const n = normals[k] as string;
    if (STOPS.has(n)) return -1;
    if (n === "more" || n === "less") return k;
    if (n !== "enough" && isComparative(n, lemmas[k] as string)) return k - 1;
  }
  return -1;
}

/** How far a wish that looks back may reach late: "found her sooner", "years ago", "put it off for years". */
const LATE = new Set(["sooner", "earlier", "ago", "long", "years"]);
const BEFORE_WISH = new Set(["i", "just", "only", "really", "also", "do"]);
const OTHERS = new Set(["more", "all", "every", "other"]);
/** What a wish wishes someone: "wish Dr. Kim and her staff nothing but the best", "wish them luck". */
const GOOD = new Set(["best", "luck", "success"]);
/** Learning late is not being told: "wish I had known sooner that they don't take my insurance". */
const LEARNT = new Set(["known", "knew", "told", "realized", "realised", "informed", "warned"]);

/**
 * The tokens `[from, to]` of a wish that praises, at the "wish" (or the question's "why") at `i`, or
 * null: the writer's regret at
 * coming late ("I only wish I had found her sooner", "wish I'd come years ago", "wish I hadn't waited
 * so long"; not "wish I hadn't had to wait so long" or "wish I'd known sooner"), or a wish for more like the practice ("wish
 * there were more doctors like her", "wish every doctor was this thorough", "why can't all doctors be
 * like Dr. Kim?"), or good wishes ("wish them all the best").
 */
export function praisingWish(
  normals: readonly string[],
  i: number,
  start: number,
  end: number,
): [number, number] | null {
  let from = i;
  while (from > start && BEFORE_WISH.has(normals[from - 1] as string)) from--;
  let j = normals[i + 1] === "that" ? i + 2 : i + 1;
  const regret = normals[j] === "i" && (normals[j + 1] === "had" || normals[j + 1] === "would");
  let others = false;
  for (; j < end && !STOPS.has(normals[j] as string); j++) {
    const n = normals[j] as string;
    if ((n === "to" && (normals[j - 1] === "had" || normals[j - 1] === "have")) || LEARNT.has(n)) return null;
    if (regret && LATE.has(n)) return [from, j];
    if (OTHERS.has(n)) others = true;
    if (others && (n === "like" || n === "this")) return [from, j];
  }
  // Good wishes to others reach past "and" and "but": "wish Dr. Kim and her staff nothing but the
  // best"; not "wish I'd had better luck with my claim".
  const toOthers = normals[i] === "wish" && normals[i + 1] !== "i";
  for (let k = i + 1; toOthers && k < end && !/^[,;:.!?()—]$/.test(normals[k] as string); k++) {
    if (GOOD.has(normals[k] as string)) return [from, k];
  }
  return null;
}
