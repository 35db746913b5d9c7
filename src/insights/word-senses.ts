import type { TermMatch } from "./aspects.ts";
import { testFindings } from "./findings.ts";
import { forewarned, measuresOnly } from "./negation.ts";
import type { TokenTable } from "./nlp.ts";
import { payingToldAt } from "./paying-told.ts";
import { prescribes } from "./prescriptions.ts";
import type { AspectSpan } from "./readings.ts";
import { inSetPhrase, tripInPassing } from "./set-phrases.ts";

/**
 * Senses in which a word of wink's general lexicon carries no opinion in a review: "after work", a
 * place ("behind the building"), "loud enough", "3 grand", a price told as a rate, the work done
 * ("worked on my jaw").
 */

/**
 * General-lexicon words whose opinion is their verb's ("it didn't work", "a van blocked the lot"),
 * none as a noun ("after work", "the works", "three blocks away", "sold in blocks of six").
 */
const VERB_SENSE = new Set(["work", "block"]);
/** Ways of getting there whose "stop" is a place: "the bus stop", "the subway stop". */
const TRANSIT = new Set("bus subway train tram metro streetcar trolley rail shuttle truck".split(" "));
/** "3 grand", "two grand": a sum of money, no praise. */
function thousands(normals: readonly string[], pos: readonly string[], i: number, start: number): boolean {
  return normals[i] === "grand" && i > start && (/^\d/.test(normals[i - 1] as string) || pos[i - 1] === "NUM");
}
const CHARGE = new Set(["charge", "charges", "charged", "bill", "bills", "billed"]);
const RATE = new Set(["per", "a", "an", "each", "every", "by"]);
/**
 * "Self-pay patients are charged $65 per adjustment", "follow-ups are charged by the length of the
 * session": a price told as a rate, no complaint; "charged me $120 for a missed appointment" is one.
 */
function rateTold(normals: readonly string[], i: number, end: number): boolean {
  if (!CHARGE.has(normals[i] as string)) return false;
  let j = i + 1;
  if (["me", "you", "us", "them"].includes(normals[j] as string)) j++;
  if (normals[j] === "by") return normals[j + 1] === "the";
  if (normals[j] === "$" || normals[j] === "£" || normals[j] === "€") j++;
  if (!/^\d/.test(normals[j] ?? "")) return false;
  j++;
  while (j < end && (normals[j] === "dollars" || normals[j] === "bucks")) j++;
  return RATE.has(normals[j] as string) && normals[j + 1] !== "month";
}
/** What follows "work" when it is the work done: "worked on my neck", "worked the knot out", "work the front desk". */
const WORKED_ON = new Set("on the a an my his her their your our this that those".split(" "));
/** What work may work that is its result: "worked his magic", "worked a miracle". */
const WROUGHT = new Set(["magic", "miracle", "miracles", "wonders"]);
/** Subjects of "work on" that tell whether something worked: "nothing worked on my back". */
const THINGS_THAT_WORK = new Set(
  "nothing it that this what which something anything everything adjustment treatment exercise stretch therapy session visit".split(
    " ",
  ),
);
/**
 * Whether "work" at `i` tells the work done, not that something worked ("it worked", "worked
 * wonders"): with what it is done on ("worked on my jaw", "worked out the knot") or where and how
 * it is done ("the room where he works", "how the table worked").
 */
export function workDone(normals: readonly string[], lemmas: readonly string[], i: number, start: number): boolean {
  if (lemmas[i] !== "work") return false;
  const next = normals[i + 1] === "out" ? (normals[i + 2] as string) : (normals[i + 1] as string);
  // "worked his magic on my neck", "worked a miracle": what the work did, praise after all.
  if (WROUGHT.has(normals[i + 2] as string)) return false;
  // "Nothing worked on my sciatica", "the stretches work on my back": a thing that worked, or not.
  const thing = lemmas.slice(Math.max(start, i - 3), i).some((l) => THINGS_THAT_WORK.has(l));
  if (WORKED_ON.has(next) && !(next === "on" && thing)) return true;
  return [i - 1, i - 2, i - 3].some((k) => k >= start && (normals[k] === "where" || normals[k] === "how"));
}

/** What "pretty" measures when it is a degree: an adjective, an adverb, a participle. */
const DEGREED = new Set(["ADJ", "ADV", "VERB"]);

/** Verbs whose "down" is a particle of the movement: "sat down and walked me through", "wrote it down". */
const DOWN_WITH = new Set("sit lie lay kneel bend lean write jot note slow calm cool settle".split(" "));

/**
 * What "ill" of being sick follows: a verb of being or becoming, a degree ("was ill", "got really
 * ill"), a determiner ("an ill tempered receptionist") or whom it made sick ("made me ill all day").
 */
const ILL_AFTER = new Set(
  "be is am are was were been being 's 'm feel feels felt feeling get gets got getting fall fell become became home very so too really quite seriously mentally terminally chronically a an the me him her us them".split(
    " ",
  ),
);
/** What follows "ill" of being sick: an end, or what it came from ("ill after the visit", "ill with flu"). */
const ILL_BEFORE = new Set("after from with for and or , . ! ?".split(" "));
/**
 * Whether "ill" at `i` is "I'll" typed without its apostrophe ("ill keep booking", "guess ill go
 * elsewhere"): it follows no verb of being or becoming and is followed by a word, not by an end.
 */
function willSaid(normals: readonly string[], i: number, start: number, end: number): boolean {
  if (normals[i] !== "ill" || i + 1 >= end || ILL_BEFORE.has(normals[i + 1] as string)) return false;
  return i === start || !ILL_AFTER.has(normals[i - 1] as string);
}

/** Whether the "stop" at `i` ends a service ("stops running", "stops at six"), not where a bus halts. */
function servesNoLonger(normals: readonly string[], pos: readonly string[], i: number): boolean {
  const next = normals[i + 1] ?? "";
  return next.endsWith("ing") || ((next === "at" || next === "after") && pos[i + 2] === "NUM");
}

/** Determiners that open what "leave" leaves: "leave the car", "left my coat", "left a message". */
const LEFT_THINGS = new Set(["the", "a", "an", "my", "your", "their", "his", "her", "our"]);

/** What a room is for, before it: "waiting room", "changing area"; no degree's measure ("pretty annoying"). */
const ROOM_FOR = new Set(["waiting", "changing", "sitting", "dressing", "meeting", "consulting"]);
function usedFor(normals: readonly string[], pos: readonly string[], i: number): boolean {
  return ROOM_FOR.has(normals[i] as string) && pos[i + 1] === "NOUN";
}

/** Whether wink's value of the word at `i` is no opinion here, by its sense in the clause `start`…`end`. */
export function noOpinionAt({ normals, lemmas, pos }: TokenTable, i: number, start: number, end: number): boolean {
  const n = normals[i] as string;
  if (n === "down" && i > start && DOWN_WITH.has(lemmas[i - 1] as string)) return true;
  // "pretty sure", "pretty long", "pretty much": a degree, no praise; "a pretty office" still praises.
  // A room named by what is done in it ("a pretty waiting room") is the thing called pretty.
  if (n === "pretty" && i + 1 < end && DEGREED.has(pos[i + 1] as string) && !usedFor(normals, pos, i + 1)) return true;
  // "My friend heard the same script", "found them through a friend": someone named, no praise;
  // likened ("like a friend", "like an old friend") it praises.
  const likened = normals[i - 1] === "like" || normals[i - 2] === "like";
  if (n === "friend" && i > start && pos[i - 1] !== "ADJ" && !likened) return true;
  // "the bus stop out front", "the 22 bus stops a block over": where a bus stops, no halt to anything;
  // "the bus stops running at six" still tells the service ending.
  if (lemmas[i] === "stop" && TRANSIT.has(normals[i - 1] as string) && !servesNoLonger(normals, pos, i)) return true;
  // "You can leave the car in the back lot": leaving a thing somewhere is no going away in disgust.
  if (lemmas[i] === "leave" && LEFT_THINGS.has(normals[i + 1] as string)) return true;
  // "after work" is no praise; a preposition before a determiner names a place ("behind the building").
  const place =
    (pos[i] === "NOUN" && VERB_SENSE.has(lemmas[i] as string)) || (pos[i] === "ADP" && pos[i + 1] === "DET");
  return (
    place ||
    measuresOnly(normals, pos, i, start) ||
    inSetPhrase({ normals, lemmas, pos }, i, start) ||
    thousands(normals, pos, i, start) ||
    rateTold(normals, i, end) ||
    willSaid(normals, i, start, end)
  );
}

/** What "go see" names when it sends the patient elsewhere: "go see a specialist", "go see my GP". */
const REFERRED = new Set(["a", "an", "my", "your", "another", "someone", "somebody", "other"]);
/** Between the patient and "say sorry": "I had to say sorry", "we even said sorry". */
const BEFORE_SAYING = new Set("to had have 'd 've kept even just already also then first".split(" "));
/** The last word of care taken over a deed: "made sure", "took care to". */
const TAKEN_CARE = new Set(["sure", "to"]);
/** The patient's own people, whose care is theirs: "my wife made sure I went". */
const KIN = new Set(
  "wife husband partner mom mum mother dad father son daughter sister brother friend boyfriend girlfriend".split(" "),
);
/** Asking someone to do a thing: "asked them to find me a slot", "begged the desk to find me a time". */
const ASKED = new Set(["ask", "beg", "plead", "want", "need", "tell"]);
/** Words that make a time found a limit: "the soonest they could find me", "the only slot they found me". */
const LIMITED = new Set(["soonest", "earliest", "only", "closest", "nearest"]);
/** Adverbs between what picks up and "picks up": "the pain always picks up". */
const WHEN_PICKED = new Set(["always", "usually", "just", "then", "really", "soon", "quickly", "slowly"]);
/** What picks up that is no one answering: "the pain picks up again". */
const ACHES = new Set(["pain", "ache", "soreness", "stiffness", "spasm", "symptom", "it"]);
/** What a call picked up names, "pick up" the phone and not the pain or a bill: "never picks up the phone". */
const PHONE = new Set(["phone", "phones", "call", "calls", "line"]);
/** Money given back, and the words that put it off: "would be waived", "will be refunded". */
const GIVEN_BACK = new Set(["waived", "refunded", "reimbursed", "credited"]);
const FUTURE_BE = new Set(["would", "will", "'ll", "'d", "should"]);
const PICKED_OBJECT = new Set(["the", "a", "my", "some", "half", "most", "part", "all", "any", "his", "her", "their"]);
/**
 * Whether the domain praise at `from`…`to` is none here: advice prescribed (prescriptions.ts), a test's results
 * (findings.ts), a set phrase (set-phrases.ts), a referral ("go see a specialist"), the patient's own apology ("I had
 * to say sorry") or care ("I made sure to bring my X-rays"), money promised back ("the fee would be waived"), or
 * "picked up" said of the pain ("the ache picks up by evening") or with an object other than the phone ("insurance
 * picks up half the cost"), no call answered.
 */
export function noPraiseAt(tokens: TokenTable, from: number, to: number, start: number, end: number): boolean {
  if (prescribes(tokens, from, start, end) || payingToldAt(tokens, from, to, start, end)) return true;
  const { normals, lemmas } = tokens;
  if (to === from + 1 && testFindings(normals, lemmas, from, start, end)) return true;
  if ((to === from + 1 && inSetPhrase(tokens, from, start)) || tripInPassing(tokens, from, to, start)) return true;
  // "told me to go see a specialist": sent on to someone else, a referral, not others told to come.
  if (normals.slice(from, to).join(" ") === "go see" && REFERRED.has(normals[to] as string)) return true;
  // "I had to say sorry for being late": the patient's own apology, no one's courtesy.
  if (lemmas[from] === "say" && normals[to - 1] === "sorry") {
    let k = from - 1;
    while (k > start && BEFORE_SAYING.has(normals[k] as string)) k--;
    if (k >= start && (normals[k] === "i" || normals[k] === "we")) return true;
  }
  // "I made sure to bring my X-rays", "my wife made sure I got there": the patient's own care, or
  // their people's, no one's at the practice.
  if (TAKEN_CARE.has(normals[to - 1] as string) && (lemmas[from] === "make" || lemmas[from] === "take")) {
    let k = from - 1;
    while (k > start && BEFORE_SAYING.has(normals[k] as string)) k--;
    if (k >= start && (normals[k] === "i" || normals[k] === "we")) return true;
    if (k > start && normals[k - 1] === "my" && KIN.has(normals[k] as string)) return true;
  }
  // "I had to beg them to find me an appointment": a time asked for, not one found.
  if (lemmas[from] === "find" && normals[from - 1] === "to") {
    for (let k = from - 2; k >= Math.max(start, from - 5); k--) if (ASKED.has(lemmas[k] as string)) return true;
  }
  // "I was told they would find me a slot": a time promised, not one found.
  if (lemmas[from] === "find" && normals[from - 1] === "would") return true;
  // "The soonest they could find me a slot was six weeks out": the limit of what was found, no praise.
  if (lemmas[from] === "find" && normals.slice(Math.max(start, from - 5), from).some((w) => LIMITED.has(w)))
    return true;
  // "they said the fee would be waived", "I was supposed to be refunded": money promised back, not given.
  const promised =
    FUTURE_BE.has(normals[from - 2] as string) || (normals[from - 2] === "to" && normals[from - 3] === "supposed");
  if (GIVEN_BACK.has(normals[from] as string) && normals[from - 1] === "be" && promised) return true;
  if (lemmas[from] !== "pick" || normals[to - 1] !== "up") return false;
  // "by friday my back pain picks up again", "the ache in my hip picks up": the pain returning, no call answered.
  let k = from - 1;
  while (k > start && WHEN_PICKED.has(normals[k] as string)) k--;
  if (normals[k - 1] === "my" && normals[k - 2] === "in") k -= 3; // "the pain in my hip picks up"
  if (k >= start && ACHES.has(lemmas[k] as string)) return true;
  if (to >= end) return false;
  const object = normals[to] as string;
  return (PICKED_OBJECT.has(object) || /^\d/.test(object)) && !normals.slice(to, to + 3).some((w) => PHONE.has(w));
}

/** A practitioner's lapses that are no complaint when the patient owns them: "I didn't explain it well". */
const LAPSES = new Set(["explain", "listen"]);
/** Whether the lapse at `from`…`to` is the patient's: "I wasn't listening to my body", "I didn't explain it well". */
function ownLapse({ normals, lemmas, pos }: TokenTable, from: number, to: number, start: number): boolean {
  if (!lemmas.slice(from, to).some((l) => LAPSES.has(l))) return false;
  let k = from - 1;
  while (k >= start && (pos[k] === "AUX" || pos[k] === "ADV")) k--;
  return k >= start && (normals[k] === "i" || normals[k] === "we");
}

const PAID = new Set(["pay", "paid", "paying", "pays"]);
const DENIED = new Set(["never", "not", "n't", "no", "without"]);
const BEING = new Set(["was", "were", "am", "is", "'m", "are", "'re", "be", "been", "left", "still"]);
/**
 * Whether "out of pocket" at `from` tells how a visit was paid ("I pay $75 a visit out of pocket")
 * or names the amount ("what my out of pocket would be"), a fact of paying, not money lost; "never
 * paid a cent out of pocket" still praises.
 */
function paidOutOfPocket(normals: readonly string[], from: number, to: number, start: number): boolean {
  if (normals.slice(from, to).join(" ") !== "out of pocket") return false;
  const before = normals.slice(Math.max(start, from - 6), from);
  if (from > start && ["my", "the", "your", "our"].includes(normals[from - 1] as string)) return true;
  // "I paid my copay and was still out of pocket for the x-rays": a state of being, money lost.
  const paid = before.findLastIndex((w) => PAID.has(w));
  return paid >= 0 && !before.some((w) => DENIED.has(w)) && !before.slice(paid).some((w) => BEING.has(w));
}

/** A subject before "don't go here", which makes it no warning: "I don't go here anymore", "if you don't go here". */
const WHO_GOES = new Set(["i", "we", "you", "they", "he", "she", "if"]);

/**
 * Whether the domain complaint at `from`…`to` is none here: a courtesy told of beforehand ("they text you when the
 * doctor is running late"), a lapse the patient owns, a trip told in passing (set-phrases.ts), or a condition that "has
 * been a pain" or "was too tight" (`conditions` and `mentions`: the clause's), the symptom the patient came with.
 */
export function noComplaintAt(
  tokens: TokenTable,
  from: number,
  to: number,
  start: number,
  conditions: readonly TermMatch[],
  mentions: readonly AspectSpan[],
  end: number,
): boolean {
  // "Booking for my back is a pain" still names the nuisance before the condition; "my back was too
  // tight to bend" is the condition itself, "the strap was too tight" a complaint.
  const bodily = tokens.lemmas[to - 1] === "pain" || tokens.normals.slice(from, to).join(" ") === "too tight";
  const symptom =
    bodily && conditions.some((c) => c.end <= from) && !mentions.some((m) => !m.condition && m.start < from);
  const paid = paidOutOfPocket(tokens.normals, from, to, start) || payingToldAt(tokens, from, to, start, end);
  // "I don't go here as often as I should": a habit told, where the bare "don't go here" warns.
  const habit = tokens.normals[to - 1] === "here" && from > start && WHO_GOES.has(tokens.normals[from - 1] as string);
  // "a late fee", "late hours": a word of a set phrase, a kind of fee or time and no lateness; "on a trek" a
  // journey told in passing (set-phrases.ts).
  const phrase = (to === from + 1 && inSetPhrase(tokens, from, start)) || tripInPassing(tokens, from, to, start);
  return (
    symptom || paid || habit || phrase || forewarned(tokens.normals, from, start) || ownLapse(tokens, from, to, start)
  );
}

/** Words between a patient and "coming back": "I keep coming back", "we'll definitely be back". */
const RETURNING = new Set(
  "keep keeps kept will 'll 'd would be am 'm are 're always definitely still happily gladly now".split(" "),
);
/**
 * Whether the outcome at `at` ("coming back", "came back") is the patient returning ("so I keep
 * coming back"), not the condition.
 */
export function patientReturns({ normals, lemmas }: TokenTable, at: number, start: number): boolean {
  if (lemmas[at] !== "come" || normals[at + 1] !== "back") return false;
  let k = at - 1;
  while (k > start && RETURNING.has(normals[k] as string)) k--;
  return k >= start && (normals[k] === "i" || normals[k] === "we" || normals[k] === "you");
}

/**
 * Whether "pick up" at `start`…`end` answers a call ("the front desk never picks up (the phone)"):
 * a call not answered, no limit on the body.
 */
export function callUnanswered(normals: readonly string[], lemmas: readonly string[], start: number, end: number) {
  return (
    lemmas[start] === "pick" &&
    (!/^[a-z]/.test(normals[end] ?? "") || normals.slice(end, end + 2).some((w) => PHONE.has(w)))
  );
}
