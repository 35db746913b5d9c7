import { UNITS } from "./durations.ts";
import type { Clause, TokenTable } from "./nlp.ts";
import type { AspectSpan } from "./readings.ts";

/**
 * When a clause tells the result of the treatment (constructions.ts asks): after a visit, a limit is
 * what the visit left, not why someone came; told as the treatment's progress, an ability is a good
 * result; and a result may be said to be not known yet.
 */

/** What a visit is called after "after": "after the first adjustment", "the morning after my second session". */
const VISITS = new Set([
  "adjustment",
  "adjust",
  "treatment",
  "visit",
  "session",
  "appointment",
  "crack",
  "manipulation",
]);
/**
 * A day told after a visit: "woke up the next day", "the morning after". What follows "after" is
 * for `aftermath` to judge: "the morning after my session", not "the morning after my car accident".
 */
const NEXT_DAY =
  /\b(?:next|following) (?:day|morning)\b|\b(?:day|morning) after\b(?! (?:my|the|a|an|his|her|their|our|that|this)\b)|\bafterwards?\b/;

/**
 * Whether what comes before a past limit tells it as what a visit left, not why someone came:
 * "after the first adjustment I could barely bend", "woke up the next day and couldn't turn my
 * head", "he cracked my back and I couldn't walk for 2 days".
 */
export function aftermath({ tokens: { normals, lemmas, pos }, start }: Clause, limiter: number): boolean {
  if (NEXT_DAY.test(normals.slice(start, limiter).join(" "))) return true;
  for (let k = start; k < limiter; k++) {
    if (normals[k] === "after" && lemmas.slice(k + 1, Math.min(limiter, k + 5)).some((l) => VISITS.has(l))) return true;
    // A treatment done, then "and" the limit: not "I came for an adjustment because I couldn't walk".
    if (pos[k] === "VERB" && VISITS.has(lemmas[k] as string) && normals.slice(k + 1, limiter).includes("and"))
      return true;
  }
  return false;
}

/** Verbs that tell progress as promised or hoped for, not made: "said that after six visits I could". */
const FORETOLD = new Set(["promise", "say", "tell", "claim", "assure", "guarantee", "hope", "expect", "predict"]);
const REPORTED = new Set(["say", "tell"]);
/** What may follow a visit's "in" when it places the visit, not counts it: "in the morning", "in March". */
const PLACED = new Set(["DET", "NUM", "NOUN", "PROPN"]);
/** Words after "after" that count the treatment so far: "after six visits", "after two weeks". */
const SO_FAR = new Set([...VISITS, ...UNITS]);
/**
 * Whether what comes before an ability tells it as treatment's progress: "after six visits I can
 * sit through a workday", "by the end of the week I could lift my arm", "three sessions in", "for the
 * first time in a year I could".
 */
export function progressed({ tokens: { normals, lemmas, pos }, start }: Clause, at: number): boolean {
  // "he promised that after six visits I could play golf again": progress foretold, not made.
  // The patient telling it ("I told my wife that after three visits I could sleep again") reports progress.
  for (let k = start; k < at; k++) {
    const l = lemmas[k] as string;
    if (FORETOLD.has(l) && !(REPORTED.has(l) && (normals[k - 1] === "i" || normals[k - 1] === "we"))) return false;
  }
  for (let k = start; k < at; k++) {
    const n = normals[k] as string;
    if (n === "after" && lemmas.slice(k + 1, Math.min(at, k + 4)).some((l) => SO_FAR.has(l))) return true;
    if (n === "by" && normals[k + 1] === "the" && (normals[k + 2] === "end" || normals[k + 2] === "time")) return true;
    // "three sessions in and I can kneel", not "my appointment in the morning".
    if (n === "in" && VISITS.has(lemmas[k - 1] as string) && !PLACED.has(pos[k + 1] as string)) return true;
    // "for the first time in months I could take a full breath"
    if (n === "first" && normals[k + 1] === "time" && (normals[k + 2] === "in" || normals[k + 2] === "since"))
      return true;
  }
  return false;
}

/** Words that judge a result, and those that name one, in "can't say yet", "no results yet". */
const JUDGING = new Set(["say", "tell", "know", "judge", "rate", "comment", "notice", "result", "verdict"]);
/** What an "if" or "whether" asks after when it asks about the result: "know if it helps". */
const RESULTING = new Set([
  ..."help work improve better change difference result fix anything much away ease budge shift loosen worse".split(
    " ",
  ),
]);
/**
 * Before "see if", words of waiting for the answer: "still waiting to see if", "we'll see whether",
 * and "ill see if", an "I'll" typed without its apostrophe.
 */
const AWAITING = new Set(["wait", "waiting", "'ll", "will", "ill", "gonna"]);
const DENIALS = new Set([
  "not",
  "no",
  "nothing",
  "never",
  "cannot",
  "cant",
  "havent",
  "hasnt",
  "didnt",
  "dont",
  // Short forms of "I don't know": "idk if it's working yet".
  "idk",
  "dunno",
]);
const WONDERING = new Set(["if", "whether"]);
/** Whose result a question may ask after other than the patient's: "if it helps everyone". */
const ASKED_FOR = new Set([
  "you",
  "everyone",
  "everybody",
  "anyone",
  "anybody",
  "others",
  "people",
  "someone",
  "somebody",
]);
/** Past forms that tell a doubt as had before the visits: "didn't know if it would help". */
const DOUBTED_BEFORE = new Set(["did", "didnt", "knew"]);
/** Verdicts that, between a denial and a word of judging, make it praise or blame: "nothing bad to say". */
const VERDICTS = new Set(["bad", "good", "negative", "positive", "wrong", "great"]);
/** How far after its denial a word of judging may stand: "haven't been going long enough to notice". */
const DENIED_REACH = 6;

/** What "only" may follow when it says how little treatment there has been: "it was only one visit", "I've only had two". */
const ONLY_AFTER = new Set(["was", "been", "'s", "is", "had", "has", "have", "'ve"]);
const FEW = new Set(["one", "a", "two", "1", "2"]);
const COURSES = new Set(["visit", "session", "adjustment", "appointment", "treatment", "week", "day"]);
/** What may follow the count and still end what it says: "only one visit so far", "only two weeks in". */
const CLOSING = new Set(["so", "yet", "in", "now", "though", "tho"]);
/** Who "only" had too little: "it was only", "I have only had". */
const SO_FAR_SUBJECTS = new Set(["it", "i", "we", "that", "this"]);

/**
 * Whether the clause says there has been too little treatment to tell ("it was only one visit",
 * "it's only been one week", "I have only had one adjustment"): a verb, "only", a small count and
 * a visit or a stretch of days, ending what the clause says; "only one visit and the pain was gone"
 * tells a result.
 */
function tooLittleYet(normals: readonly string[], start: number, end: number): boolean {
  for (let k = start + 1; k < end - 2; k++) {
    if (normals[k] !== "only" || !ONLY_AFTER.has(normals[k - 1] as string)) continue;
    // Said of the treatment so far ("but it was only one visit"), not of a wait ("the wait was only
    // one week") nor added to a result ("my sciatica is gone, and it was only one visit").
    if (!SO_FAR_SUBJECTS.has(normals[k - 2] as string) || normals[k - 3] === "and") continue;
    let j = k + 1;
    if (normals[j] === "been" || normals[j] === "had") j++;
    if (!FEW.has(normals[j] as string)) continue;
    const unit = (normals[j + 1] ?? "").replace(/s$/, "");
    // It ends its clause: "only two adjustments and my wrist already feels better" tells a result.
    const after = normals[j + 2];
    if (COURSES.has(unit) && (j + 2 >= end || !/^[a-z]/.test(after as string) || CLOSING.has(after as string)))
      return true;
  }
  return false;
}

/**
 * Whether the clause says the result is not known yet, in words of its own: a denial, a word of
 * judging and "yet" ("can't yet say whether the lumbar stuff is improving", "nothing to rate yet",
 * "haven't noticed any change yet"), or a denial of knowing whether it helps ("didn't get far
 * enough to know if it helps", "hard to judge results", "not sure if it's working"), or the answer
 * awaited ("still waiting to see if the adjustments do anything"). The lexicon's `undecided` lists set phrases.
 */
export function notKnownYet({ tokens: { normals, lemmas }, start, end }: Clause): boolean {
  if (tooLittleYet(normals, start, end)) return true;
  const denials: number[] = [];
  for (let k = start; k < end; k++)
    if (DENIALS.has(normals[k] as string) || (normals[k] === "hard" && lemmas[k + 1] === "to")) denials.push(k);
  // "Haven't been treated enough to judge": too few visits to tell, "yet" or not.
  let enough = false;
  // The judging word is the one denied ("nothing to rate", "can't yet say"), not one farther on
  // ("haven't had a bad visit yet and I tell everyone").
  const judged = denials.some((d) => {
    // "nothing bad to say yet" praises, and "nothing but good things to say" denies nothing.
    if (normals[d + 1] === "but") return false;
    for (let j = d + 1; j < Math.min(end, d + 1 + DENIED_REACH); j++) {
      if (VERDICTS.has(normals[j] as string)) return false;
      if (JUDGING.has(lemmas[j] as string)) {
        enough = normals.slice(d + 1, j).includes("enough");
        return true;
      }
    }
    return false;
  });
  if (judged && (enough || normals.slice(start, end).includes("yet"))) return true;
  // "not sure it's fixing my knee", "not sure if it's working": doubt of the result itself.
  const doubted = denials.some(
    (d) => normals[d + 1] === "sure" && lemmas.slice(d + 2, Math.min(end, d + 7)).some((l) => RESULTING.has(l)),
  );
  if (doubted) return true;
  for (let k = start; k < end; k++) {
    if (!WONDERING.has(normals[k] as string) && lemmas[k] !== "result") continue;
    const asker = lemmas.slice(Math.max(start, k - 3), k).some(
      (l, i, before) =>
        // Knowing denied ("can't tell if it helps"), or the answer awaited ("still waiting to see if").
        (denials.length > 0 && (l === "know" || l === "tell" || l === "say" || l === "judge")) ||
        l === "idk" ||
        l === "dunno" ||
        (l === "see" && before.slice(0, i).some((b) => AWAITING.has(b))),
    );
    // "I didn't know if it would help", "never knew whether": a doubt before the visits, not now.
    if (normals.slice(Math.max(start, k - 4), k).some((n) => DOUBTED_BEFORE.has(n))) continue;
    const asked = normals.slice(k + 1, Math.min(end, k + 8));
    // "if it will work for you", "if it helps everyone": a result for others, not the patient's left open.
    if (asked.some((n) => ASKED_FOR.has(n))) continue;
    // Of the result by lemma or by the word itself: wink lemmatises "better" to "good".
    let resulting = false;
    for (let j = k + 1; j < Math.min(end, k + 6) && !resulting; j++)
      resulting = RESULTING.has(lemmas[j] as string) || RESULTING.has(normals[j] as string);
    if (asker && (lemmas[k] === "result" || resulting)) return true;
  }
  return false;
}

/** After "how", words of an amount, not of the result: "how much they'll bill". */
const HOW_MUCH = new Set(["much", "many", "long"]);
/** Words of what an undecided phrase is about that make it the result: "on whether it helps", "on my shoulder". */
const RESULT_TOPICS = new Set([
  "it",
  "whether",
  "if",
  "my",
  "this",
  "result",
  "progress",
  "treatment",
  "adjustment",
  "plan",
]);

/**
 * Whether the undecided phrase ending at `end` is about the result: said alone ("time will tell"),
 * or of what the words after "on" or "about" name as the result or the patient's own ("the jury is
 * out on my shoulder"), not of something else ("the jury is out on the new office"), nor asking
 * what someone else will do ("waiting to see if anyone cancels"); after "if" or "whether", of the
 * result ("still deciding if it's helping"), not of going back.
 */
export function aboutResult({ tokens: { normals, lemmas }, end: clauseEnd }: Clause, end: number): boolean {
  // "waiting to see if someone cancels": what others do, not the patient's result.
  if (WONDERING.has(normals[end - 1] as string) || normals[end - 1] === "how") {
    if (ASKED_FOR.has(normals[end] as string)) return false;
    // "waiting to see how it goes", "…if the adjustments do anything": the treatment or a word of the
    // result; "waiting to see how much they'll bill", "…if the front desk calls back" ask after another thing.
    const from = normals[end - 1] === "how" && HOW_MUCH.has(normals[end] as string) ? end + 1 : end;
    return (
      lemmas.slice(from, Math.min(clauseEnd, from + 3)).some((l) => RESULT_TOPICS.has(l)) ||
      lemmas.slice(from, Math.min(clauseEnd, from + 7)).some((l) => RESULTING.has(l))
    );
  }
  // "still deciding if it's helping", not "still deciding if I'll go back".
  if (WONDERING.has(normals[end] as string))
    return lemmas.slice(end + 1, Math.min(clauseEnd, end + 7)).some((l) => RESULTING.has(l));
  if (normals[end] !== "on" && normals[end] !== "about") return true;
  return lemmas.slice(end + 1, Math.min(clauseEnd, end + 5)).some((l) => RESULT_TOPICS.has(l));
}

/** People who may do something "still": "he still went ahead", "they still charged me". */
const PERSISTERS = new Set(["he", "she", "they"]);
/** Verbs by which "she still has headaches" tells a condition unchanged, not someone keeping on. */
const HAVING = new Set(["has", "have", "had", "feels", "feel", "is", "are", "gets", "get"]);
/** Outcomes that tell a condition stayed as it was ("my fingers stayed numb") unless someone stayed. */
const STAYING = new Set(["stayed", "stays", "remained", "remains"]);
/** Words between who stays and "stayed": "I had stayed", "she always stays". */
const STAY_BETWEEN = new Set(["have", "had", "has", "'ve", "'d", "always", "just", "even", "never", "then"]);
/** Who may stay, with no condition unchanged: "I stayed an hour", "she stayed late to fit me in". */
const STAYERS = new Set(["i", "we", "you", "u", "he", "she", "they"]);
/**
 * Whether the outcome "still" at `at` tells someone kept on ("he still twisted my neck", "the dr
 * still can't tell me what's wrong", "they still charged me"), not a condition that did not change;
 * `mentions` are the clause's: someone or something of another aspect than the result named right
 * before it ("the treatment still works" is the treatment's; "80% better still a bit stiff" the result's).
 * "Stayed" or "remained" likewise tells someone who stayed when a person, a name or another aspect
 * comes first ("Dr. Lee stayed late").
 */
export function someoneStill(
  { normals, pos }: TokenTable,
  at: number,
  start: number,
  mentions: readonly AspectSpan[],
  result: number,
  conditions: readonly { start: number }[],
): boolean {
  if (STAYING.has(normals[at] as string)) {
    let k = at - 1;
    while (k > start && STAY_BETWEEN.has(normals[k] as string)) k--;
    const named = pos[k] === "PROPN" || mentions.some((m) => m.end === k + 1 && !m.condition);
    // "stayed loose for weeks": a state kept that is no condition, which its own word judges.
    const state = pos[at + 1] === "ADJ" && normals[at + 1] !== "gone" && !conditions.some((c) => c.start === at + 1);
    return state || (k >= start && (STAYERS.has(normals[k] as string) || named));
  }
  if (normals[at] !== "still" || at === start) return false;
  const named = mentions.some((m) => m.end === at && !m.condition && m.aspect !== result);
  if (!named && !PERSISTERS.has(normals[at - 1] as string)) return false;
  // "he still has migraines", "they still hurt": the one who has the condition, still unchanged.
  const having = HAVING.has(normals[at + 1] as string);
  return !conditions.some((c) => c.start === at + 1 || (having && c.start > at));
}
