/**
 * Words that turn or silence the opinion words near them (polarity.ts reads them): a negator and how
 * far it reaches, "less" before an adjective, and words said for effect (an interjection opening a
 * clause, a shrug).
 */

/** How many words after a negator it may turn. */
export const SCOPE = 7;
/** Words that turn the opinion words after them, up to `SCOPE` words or a `SCOPE_END`. */
export const NEGATORS = new Set("not no zero never without nothing nobody none neither nor cannot".split(" "));
/** A negated modal before a comparative is praise: "could not be happier". */
export const MODALS = new Set(["could", "can", "would"]);
export const SCOPE_END = new Set([",", ";", ":", ".", "!", "?", "and", "but", "—", "(", ")", "when", "whenever", "if"]);
/** After these a negator does not negate an opinion: "not only", "can't wait", "never thought I'd". */
export const NOT_NEGATED = new Set(
  "only just wonder believe wait thought think expect expected expecting imagine imagined".split(" "),
);

/**
 * Whether the negator at `p` negates nothing. "not to" asks for something ("I asked him not to adjust
 * my neck"), not says it is absent; "nothing to complain about", "never to blame" still negate. A
 * "no" after a determiner is a word of a noun ("the no show fee"), and one wink tags a noun is an
 * answer it took for "No." (number) and read on from ("no. just no. doc ignored me").
 */
export function negatesNothing(normals: readonly string[], pos: readonly string[], p: number): boolean {
  const next = normals[p + 1] as string;
  if (normals[p] === "no" && (pos[p] === "NOUN" || pos[p - 1] === "DET")) return true;
  return NOT_NEGATED.has(next) || (next === "to" && normals[p] === "not");
}
const NOUNS = new Set(["NOUN", "PROPN"]);
/**
 * What may follow a noun "no" negates and still be in its scope: the noun phrase going on ("no
 * verdict on results"), or what the phrase is the subject of ("no adjustment helped", "no staff
 * member was friendly") or governs ("no reason to complain").
 */
const NOUN_PHRASE_GOES_ON = new Set(["NOUN", "PROPN", "ADP", "VERB", "AUX", "PART"]);
/**
 * Whether the scope of the negator at `p` ends after word `i`: "no" before a noun negates that noun
 * phrase and what it governs, not the words after it ("no warning no consent just yanked my head":
 * "yanked" stays a complaint). "No one" reaches as far as "nobody".
 */
export function nounPhraseEnds(normals: readonly string[], pos: readonly string[], p: number, i: number): boolean {
  if (normals[p] !== "no" || normals[p + 1] === "one" || !NOUNS.has(pos[i] as string)) return false;
  return !NOUN_PHRASE_GOES_ON.has(pos[i + 1] as string);
}
const CONTRASTS = new Set(["but", "though", "yet"]);
const SENTENCE_ENDS = new Set([".", "!", "?"]);
/**
 * Whether the negated word at `i`, in a clause ending at `end`, concedes a flaw to praise what the
 * sentence says next: "not perfect, but def better" is no complaint by itself. A contrast after the
 * clause's full stop opens another sentence ("My back is not perfect. But the staff are lovely.").
 */
export function concedes(normals: readonly string[], i: number, end: number): boolean {
  if (normals[i] !== "perfect" || SENTENCE_ENDS.has(normals[end - 1] as string)) return false;
  return CONTRASTS.has(normals[end] as string) || CONTRASTS.has(normals[end + 1] as string);
}
/** "Not 5 stars because…", "isn't five stars:": the negator is about the rating, not the words after it. */
const STAR_COUNTS = new Set(["1", "2", "3", "4", "5", "one", "two", "three", "four", "five"]);
/** "Stars", or "star" ending the phrase: "not 5 star friendly" still negates "friendly". */
export const ratesStars = (normals: readonly string[], i: number) =>
  STAR_COUNTS.has(normals[i] as string) &&
  (normals[i + 1] === "stars" || (normals[i + 1] === "star" && !/^[a-z]/.test(normals[i + 2] ?? "")));
/** Present forms of telling someone: a practice's habit ("they text you when…"), not one night's call. */
const TOLD = new Set(
  ["text", "texts", "msg", "message", "messages", "send", "sends", "call", "calls", "email", "emails"].concat([
    "notify",
    "notifies",
    "warn",
    "warns",
    "know",
    "let",
    "lets",
  ]),
);
/**
 * Whether the complaint word at `at` is what patients are told of beforehand ("they text you when
 * the doctor is running late", "let you know if they're running behind"): a courtesy, no complaint.
 */
export function forewarned(normals: readonly string[], at: number, from: number): boolean {
  for (let k = at - 1; k >= Math.max(from, at - 6); k--) {
    if (normals[k] !== "if" && normals[k] !== "when" && normals[k] !== "whenever") continue;
    // "They never call you when…", "Nobody texts when…": the courtesy denied is the complaint.
    const before = normals.slice(from, k);
    return before.slice(-3).some((w) => TOLD.has(w)) && !before.some((w) => NEGATORS.has(w));
  }
  return false;
}
/** Verbs whose complaint is the practice's act, none when the patient does it: "I cancelled two days ahead". */
const OWN_ACTS = new Set(["cancel"]);
const PERMITS = new Set(["can", "could", "cannot", "cant", "couldnt"]);
/** What may stand between the patient and their act: "I'd already cancelled", "we had to cancel". */
const BETWEEN_ACT = new Set(["AUX", "ADV", "PART", "VERB", "NUM"]);
/**
 * Whether the word at `at` is an act the patient did ("an appointment I had cancelled", "called 5
 * times to cancel"), which tells what they did, not what the practice did to them ("they cancelled
 * on me", "Cancelled my appointment again"). The patient is its subject, or it is an infinitive in a
 * clause that names no one else before it.
 */
export function patientsAct(
  normals: readonly string[],
  lemmas: readonly string[],
  pos: readonly string[],
  at: number,
  from: number,
  acts: ReadonlySet<string> = OWN_ACTS,
): boolean {
  if (!acts.has(lemmas[at] as string)) return false;
  let infinitive = false;
  for (let k = at - 1; k >= from; k--) {
    const n = normals[k] as string;
    // "I was cancelled on" is done to them; "why can I only cancel by phone?" asks what the practice allows.
    if (n === "i" || n === "we") return !PERMITS.has(normals[k - 1] as string);
    if (lemmas[k] === "be" || lemmas[k] === "get" || PERMITS.has(n)) return false;
    if (n === "to") infinitive = true;
    else if (!BETWEEN_ACT.has(pos[k] as string) && !(n === "times" && pos[k - 1] === "NUM")) return false;
  }
  return infinitive;
}
/** Interjections that open a clause without judging: "okay the wait is LONG", "wow, $80 to be told to drink water". */
export const DISCOURSE = new Set(["ok", "okay", "alright", "well", "so", "yes", "yeah", "wow"]);
/** Adverbs that turn the adjective after them towards its opposite: "less convenient". */
export const DIMINISHERS = new Set(["less", "least"]);
/** What may stand between "less" and the condition its adjective describes: "less severe lower back pain". */
export const MODIFIES = new Set(["ADJ", "ADV", "NOUN"]);
/** What may stand between a negated modal and "less": "couldn't (have) be(en) any less helpful". */
export const LINKS = new Set(["be", "been", "have", "get", "any"]);
/** "what the hell", "what the heck": said as a shrug when nothing follows in the clause. */
export const SHRUGS = new Set(["hell", "heck"]);

/**
 * Whether "enough" at `i` only measures the adjective before it ("loud enough for everyone to hear":
 * the adjective judges); denied ("never quick enough", "not nearly helpful enough") it is the lack.
 */
export function measuresOnly(normals: readonly string[], pos: readonly string[], i: number, start: number): boolean {
  if (normals[i] !== "enough" || i <= start || (pos[i - 1] !== "ADJ" && pos[i - 1] !== "ADV")) return false;
  return !normals.slice(Math.max(start, i - 3), i).some((w) => NEGATORS.has(w));
}

/**
 * Whether "less" or "least" at `i` weakens the adjective after it to its opposite ("less convenient",
 * "the least helpful"). "Less pain", "less painful", "less severe back pain" (a condition, or right
 * before one) stay outcomes, and "at least polite" is praise. `judged`: whether a word carries a value;
 * `condition`: whether a word is a condition's.
 */
export function diminishesAt(
  normals: readonly string[],
  pos: readonly string[],
  i: number,
  end: number,
  judged: (j: number) => boolean,
  condition: (j: number) => boolean,
): boolean {
  const n = normals[i] as string;
  if (!DIMINISHERS.has(n) || (n === "least" && normals[i - 1] === "at")) return false;
  if (i + 1 >= end || pos[i + 1] !== "ADJ" || !judged(i + 1) || condition(i + 1)) return false;
  return !(condition(i + 2) || (MODIFIES.has(pos[i + 2] as string) && condition(i + 3)));
}
