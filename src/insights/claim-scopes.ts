import type { Clause } from "./nlp.ts";

/**
 * Which tokens of a clause the writer does not assert as what is (quote-claims.ts): what they wish
 * would be, what someone else said, and what was. Each is a mask over the clause's tokens, 1 where
 * a token stands in such a scope.
 */

/** Where a clause's words end a governing word's reach. */
export const SCOPE_END = new Set([",", ";", ":", ".", "!", "?", "—", "(", ")"]);
/** Marks that close a condition inside its sentence. */
const INNER_STOPS = new Set([",", ";", ":", "—"]);
/** Verbs a conditional wishes with, by lemma: "would love", "'d like", "would be nice", "might have". */
const WISHED = new Set(["love", "like", "be", "appreciate", "prefer", "enjoy", "have"]);

/** What a wishing verb may ask leave to do, by lemma: "would like to thank", "would have to say". */
const SPEECH_ACTS = new Set(["thank", "say", "recommend", "commend", "mention", "praise", "add", "share"]);

/** What the writer "never thought" would be came true: "Never thought I'd be pain-free again". */
const DOUBTED = new Set(["think", "imagine", "dream", "expect", "believe"]);

/**
 * The tokens of a clause that tell what would be, not what is: from the verb a conditional wishes
 * with ("would love", "it'd be great", "would be fine if…"; not "wouldn't", "would recommend" or
 * "would like to thank") to the next punctuation mark, and the condition an opening "if" sets up
 * to its comma ("If I wanted to see Dr. Hughes specifically, I'd have to wait"; not "if only", a
 * wish read as a lack).
 */
export function hypotheticals(clause: Clause): Uint8Array {
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
    // The writer's own thanks or verdict, said with a polite "would": no wish.
    if (normals[j + 1] === "to" && SPEECH_ACTS.has(lemmas[j + 2] as string)) continue;
    for (let k = j; k < clause.end && !SCOPE_END.has(normals[k] as string); k++) out[k - clause.start] = 1;
  }
  return out;
}

/** Verbs that report what someone said, by lemma: "my friend told me…", "the receptionist said…". */
const REPORTING = new Set(["say", "tell", "claim", "promise", "assure", "insist", "swear"]);
/** Adverbs that pass on what others say: "apparently", "supposedly". */
const HEARSAY = new Set(["apparently", "supposedly", "allegedly", "reportedly", "reputedly"]);
/** Verbs by which the writer passes on what others said, by lemma: "I've heard…", "I'd read…". */
const HEARING = new Set(["hear", "read"]);
/** Who is the writer, as the subject of a verb. */
const WRITER = new Set(["i", "we"]);
/** Forms of "be" and "get" that make "told" passive: "I was told", "we got told". */
export const PASSIVE = new Set(["be", "get"]);
/** What may stand between a subject and its verb: "she has always said", "he kept telling me". */
const BETWEEN = new Set(["ADV", "AUX", "PART"]);
/** Whom something is told, and "that", before what was said: "told me (that) …". */
const TOLD = new Set(["me", "us", "him", "her", "them", "you", "that"]);
/** Where what was said ends: a mark inside the sentence, or a conjunction that goes on with the writer's own. */
const SAID_ENDS = new Set([",", ";", ":", "—", "(", ")", ".", "!", "?"]);

/** The words of a speaker before a reporting verb: "my best friend", "a nurse I know". */
const SPEAKER = new Set(["NOUN", "PROPN", "PRON", "DET", "ADJ"]);
/** What may open what was said: its subject. */
const SUBJECT = new Set(["NOUN", "PROPN", "PRON", "DET", "NUM"]);

/**
 * Where what a reporting verb at `i` says was said starts, or -1 when no clause of its own, with a
 * subject, follows it ("Nothing says healing like…", "cant say enough good things", "didn't tell me
 * to stop", "told me upfront what…"). It starts after whom it was told and any adverb ("told me
 * honestly that…": the honesty is the writer's).
 */
function saidFrom(clause: Clause, i: number): number {
  const { normals, pos } = clause.tokens;
  let k = i + 1;
  while (k < clause.end && (TOLD.has(normals[k] as string) || pos[k] === "ADV")) k++;
  const from = k;
  if (!SUBJECT.has(pos[from] as string)) return -1;
  for (; k < clause.end && k < from + 6 && !SAID_ENDS.has(normals[k] as string); k++) {
    if (k > from && (pos[k] === "AUX" || pos[k] === "VERB")) return from;
  }
  return -1;
}

/**
 * The tokens of a clause that report someone else's words: after "according to", or the clause a
 * reporting verb introduces when its subject is not the writer ("My friend told me Dr. Patel is
 * amazing", "I was told it was covered"; not "I told them…", nor "you can tell they clean"), or
 * that "heard" or "read" introduces whoever the subject, or after a hearsay adverb ("Apparently…")
 * or "claim to", up to the next punctuation mark or conjunction.
 */
export function reportedSpeech(clause: Clause): Uint8Array {
  const { normals, lemmas, pos } = clause.tokens;
  const out = new Uint8Array(clause.end - clause.start);
  for (let i = clause.start; i < clause.end; i++) {
    // "According to X, …": all that follows is X's.
    if (normals[i] === "according" && normals[i + 1] === "to") {
      out.fill(1, i + 2 - clause.start);
      break;
    }
    let from = -1;
    // "Apparently Dr. Patel is great", "Supposedly, the staff are friendly": what others say.
    if (HEARSAY.has(normals[i] as string)) from = normals[i + 1] === "," ? i + 2 : i + 1;
    // "They claim to be patient-focused": what they say of themselves.
    else if (lemmas[i] === "claim" && normals[i + 1] === "to") from = i + 2;
    // "I've heard Dr. Patel is great": the writer tells what others said.
    else if (pos[i] === "VERB" && HEARING.has(lemmas[i] as string)) from = saidFrom(clause, i);
    else if (pos[i] === "VERB" && REPORTING.has(lemmas[i] as string)) {
      let s = i - 1;
      while (s >= clause.start && BETWEEN.has(pos[s] as string)) s--;
      const passive = PASSIVE.has(lemmas[i - 1] as string);
      const writer = !passive && s >= clause.start && WRITER.has(normals[s] as string);
      const seeing = normals[i - 1] === "can" || normals[i - 1] === "could";
      if (!writer && !seeing) from = saidFrom(clause, i);
      // Who said it is no judgement of the writer's either: wink's "friend" in "My friend told me…".
      for (let k = s; from >= 0 && k >= clause.start && SPEAKER.has(pos[k] as string); k--) out[k - clause.start] = 1;
    }
    if (from < 0) continue;
    for (let k = from; k < clause.end && !SAID_ENDS.has(normals[k] as string) && pos[k] !== "CCONJ"; k++) {
      out[k - clause.start] = 1;
    }
  }
  return out;
}

/**
 * The tokens of a clause told as what was, not what is: after "used to" (not "got used to", "are
 * used to") or "were once" (not "once again"), up to the next punctuation mark, and all of a clause that says "at
 * first" or "in the beginning" of itself.
 */
export function toldAsPast(clause: Clause): Uint8Array {
  const { normals, lemmas } = clause.tokens;
  const out = new Uint8Array(clause.end - clause.start);
  for (let i = clause.start; i < clause.end; i++) {
    const n = normals[i] as string;
    const next = normals[i + 1] as string;
    const whole =
      (n === "first" && normals[i - 1] === "at" && (i + 1 >= clause.end || SCOPE_END.has(next))) ||
      (n === "beginning" && normals[i - 1] === "the" && normals[i - 2] === "in");
    if (whole) return out.fill(1);
    const past =
      (n === "used" && next === "to" && !PASSIVE.has(lemmas[i - 1] as string)) ||
      // "Were once again lovely" and "once more" say it happened again, now.
      (n === "once" && lemmas[i - 1] === "be" && next !== "again" && next !== "more");
    for (let k = i + 1; past && k < clause.end && !SCOPE_END.has(normals[k] as string); k++) out[k - clause.start] = 1;
  }
  return out;
}
