import model from "wink-eng-lite-web-model";
import winkNLP, { type ItsFunction } from "wink-nlp";
import { clauseRanges } from "./clause-cuts.ts";
import { respell, respeltLemma } from "./spellings.ts";

/**
 * The NLP edge of the insights: wink-nlp with its English lite model does tokenising, sentence
 * splitting, part-of-speech tagging and lemmatisation, and its lexicon gives the general polarity of
 * a single word. Negation, outcomes and attribution are ours (`polarity.ts`). Everything else in
 * `insights/` works on the plain arrays returned here, so no wink document outlives one review
 * (that is what keeps a 100,000-review build inside its memory), and the arrays are shared by the
 * clauses of a text rather than copied per clause (that is what keeps the garbage collector idle).
 */

/**
 * Per token of one analysed text (whitespace tokens dropped): text as written, lowercase form,
 * lemma, part of speech, stop word and is a word.
 * Shared by all the clauses of that text, which index into it, so a review allocates it once.
 */
export interface TokenTable {
  values: string[];
  normals: string[];
  lemmas: string[];
  pos: string[];
  stop: boolean[];
  words: boolean[];
}

/** The unit aspects and sentiment are computed on: a sentence, or a part of one (see `clauses`). */
export interface Clause {
  /** The whole sentence the clause belongs to, whitespace collapsed; used for excerpts. */
  sentence: string;
  /** Position of that sentence in the analysed text. */
  sentenceIndex: number;
  /** The clause itself, whitespace collapsed; entity names are looked for in it. */
  text: string;
  tokens: TokenTable;
  /** The clause's tokens are `tokens.*[start]` up to, not including, `tokens.*[end]`. */
  start: number;
  end: number;
}

export interface TermForms {
  normals: string[];
  lemmas: string[];
}

export interface Analyzer {
  /** Sentences of `text`, each split into clauses at contrastive conjunctions, with sentiment. */
  clauses(text: string, firstSentenceIndex?: number): Clause[];
  /** Tokens of an editor's term, normalised exactly like clause tokens so the two can be compared. */
  termForms(term: string): TermForms;
  /**
   * Polarity of one word in wink's general lexicon, in [-1, 1] (0 for unknown words). Cached: the
   * vocabulary of a corpus is small next to its token count.
   */
  wordScore(normal: string): number;
}

/**
 * Short forms patients type, read as the word they stand for: the lemma changes, the text does not,
 * so an editor's term ("appointment") and the models' features meet "appt" too. Only forms that mean
 * one thing in reviews of a practice ("apt" may be a flat, "pt" a physical therapist: not here).
 */
const SHORT_FORMS = new Map(
  Object.entries({
    appt: "appointment",
    appts: "appointment",
    chiro: "chiropractor",
    chiros: "chiropractor",
    doc: "doctor",
    recep: "receptionist",
    hr: "hour",
    hrs: "hour",
    min: "minute",
    mins: "minute",
    u: "you",
    ur: "your",
    w: "with",
    msg: "message",
    msgs: "message",
    vm: "voicemail",
    vms: "voicemail",
    bc: "because",
    tho: "though",
    thx: "thanks",
  }),
);

/** "Dr." and "Dr", "Blvd." and "Blvd" are the same word to an editor. */
const form = (s: string) => (s.length > 1 && s.endsWith(".") ? s.slice(0, -1) : s);
const isSpace = (type: string) => type === "tabCRLF" || type === "spaces";

/** Where the process's wink instances are kept (see `winkInstances`). */
const WINK = Symbol.for("public-reviews.wink");
type WinkInstances = { model: unknown; nlp: ReturnType<typeof winkNLP>; scorer: ReturnType<typeof winkNLP> };

/**
 * One pair of wink instances per process. Reading the model takes a noticeable part of a second, and `npm start`'s
 * build worker (src/build/astro-worker.ts) runs many builds in one process, each importing this
 * module afresh from its own bundle, so the pair is kept on `globalThis`, which they share, for as
 * long as the model module is the same. What wink returns for a text does not depend on the texts
 * an instance read before (the analysis cache relies on that too), so sharing changes no output.
 */
function winkInstances(): WinkInstances {
  const g = globalThis as { [WINK]?: WinkInstances };
  const kept = g[WINK];
  if (kept?.model === model) return kept;
  const made: WinkInstances = {
    model,
    // NER and custom entities are off: catalogue names are matched by `mentions.ts`, and the two
    // annotators would cost a third of the run time for nothing we use.
    nlp: winkNLP(model, ["sbd", "pos"]),
    // Scores single words; sentence splitting and POS are not needed for that.
    scorer: winkNLP(model, ["sentiment"]),
  };
  g[WINK] = made;
  return made;
}

/** Reads wink's model now, for a build whose main thread would wait anyway (integrations/analyzer-warm-up.ts). */
export function warmAnalyzer(): void {
  winkInstances();
}

export function createAnalyzer(): Analyzer {
  const { nlp, scorer } = winkInstances();
  const its = nlp.its;
  // wink's typings declare `its.lemma` with a third parameter that `out()` does not accept.
  const lemma = its.lemma as unknown as ItsFunction<string>;
  const wordScores = new Map<string, number>();
  const wordScore = (normal: string) => {
    let v = wordScores.get(normal);
    if (v === undefined) {
      v = Math.max(-1, Math.min(1, scorer.readDoc(normal).out(its.sentiment) as number));
      // Bounded: a pathological corpus of unique tokens must not grow the cache without limit.
      if (wordScores.size < 200_000) wordScores.set(normal, v);
    }
    return v;
  };

  return {
    clauses(text, firstSentenceIndex = 0) {
      const doc = nlp.readDoc(text);
      const t = doc.tokens();
      const allTypes = t.out(its.type) as string[];
      // Whitespace tokens (line breaks) are dropped once here; `at[i]` maps a wink token index to
      // its position in the kept arrays, and `gap` records whether whitespace came before a token.
      const at = new Int32Array(allTypes.length + 1);
      const kept: number[] = [];
      const gap: boolean[] = [];
      const spaces = t.out(its.precedingSpaces) as string[];
      let pendingGap = false;
      for (let i = 0; i < allTypes.length; i++) {
        at[i] = kept.length;
        if (isSpace(allTypes[i] as string)) {
          pendingGap = true;
          continue;
        }
        kept.push(i);
        gap.push(pendingGap || (spaces[i] as string).length > 0);
        pendingGap = false;
      }
      at[allTypes.length] = kept.length;
      // Most reviews are one paragraph: nothing to drop, so wink's arrays are used as they are.
      const keep = <T>(arr: T[]): T[] => (kept.length === arr.length ? arr : kept.map((i) => arr[i] as T));
      const values = keep(t.out(its.value) as string[]);
      const types = keep(allTypes);
      const written = keep(t.out(its.normal) as string[]).map(form);
      const normals = written.map(respell);
      // wink has no lemma for some words it does not split ("didnt" before a comma: null); such a
      // word is its own lemma, as an unknown word is.
      const lemmas = keep(t.out(lemma) as (string | null)[]).map(
        (l, i) =>
          SHORT_FORMS.get(normals[i] as string) ??
          respeltLemma(written[i] as string) ??
          (l == null ? (normals[i] as string) : form(l)),
      );
      const pos = keep(t.out(its.pos) as string[]);
      const stop = keep(t.out(its.stopWordFlag) as unknown as boolean[]);
      const sentences = doc.sentences();
      const spans = sentences.out(its.span) as unknown as [number, number][];

      const textOf = (from: number, to: number) => {
        let text = values[from] as string;
        for (let i = from + 1; i < to; i++) text += gap[i] ? ` ${values[i]}` : values[i];
        return text;
      };
      const tokens: TokenTable = {
        values,
        normals,
        lemmas,
        pos,
        stop,
        words: types.map((type) => type === "word"),
      };
      const out: Clause[] = [];
      spans.forEach(([first, last], s) => {
        const begin = at[first] as number;
        const end = at[last + 1] as number;
        if (begin === end) return;
        const sentence = textOf(begin, end);
        const ranges = clauseRanges(normals, types, begin, end);
        for (const [from, to] of ranges) {
          const whole = ranges.length === 1;
          const clauseText = whole ? sentence : textOf(from, to);
          out.push({
            sentence,
            sentenceIndex: firstSentenceIndex + s,
            text: clauseText,
            tokens,
            start: from,
            end: to,
          });
        }
      });
      return out;
    },
    termForms(term) {
      const t = nlp.readDoc(term).tokens();
      const types = t.out(its.type) as string[];
      const keep = (arr: string[]) => arr.map(form).filter((_, i) => !isSpace(types[i] as string));
      return { normals: keep(t.out(its.normal) as string[]), lemmas: keep(t.out(lemma) as string[]) };
    },
    wordScore,
  };
}

/**
 * Each clause's character range in its sentence. A clause's text is its sentence's text from its
 * first token to its last, so it is found in the sentence, searching after the clause before it.
 */
export function clauseSpans(clauses: readonly Clause[]): [number, number][] {
  let from = 0;
  return clauses.map((c, k) => {
    if (clauses[k - 1]?.sentenceIndex !== c.sentenceIndex) from = 0;
    const at = c.sentence.indexOf(c.text, from);
    if (at < 0) return [0, c.sentence.length];
    from = at + c.text.length;
    return [at, from];
  });
}
