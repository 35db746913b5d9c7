import type { ModelVerdict } from "./learned.ts";

/**
 * What the reading of a clause is made of: the aspects it names and what it says of each. The rules
 * make them (polarity.ts, clause-rules.ts), the learned models amend them (learned-reading.ts), the
 * review reading and `--explain` read them.
 */

/** An aspect named in a clause: token range and aspect index; `weak` mentions need an opinion. */
export interface AspectSpan {
  aspect: number;
  start: number;
  end: number;
  weak: boolean;
  /** Named by a condition, a neutral term or a practitioner's name, not by one of the aspect's own terms. */
  condition?: boolean;
  /** Named by a given name ("kayla at the desk"): someone the models, which read words, cannot know. */
  person?: boolean;
}

/** What one clause says about one aspect. */
export interface AspectReading {
  aspect: number;
  /** In [-1, 1]; 0 when no polar word was credited to the aspect. */
  score: number;
  /** Whether any polar word was credited, even if they cancelled out (a tie the rating may break). */
  polar: boolean;
  /** Read from a contrast with another clause, not from a word of this clause (clause-rules.ts). */
  inferred?: boolean;
  /** A symptom said to be absent was credited ("it didn't hurt"). */
  absent?: boolean;
  /**
   * Every polar word credited is from wink's general lexicon, none the project's own (sentiment.yaml)
   * or a construction's: `names` when each is a noun in a compound ("wellness benefit"), which is
   * never a quote; `judges` otherwise, which is no quote in a clause that borrows its aspects.
   */
  wink?: "judges" | "names";
  /**
   * Set when the learned models (learned-reading.ts) decided this reading: `filled` a clause the
   * rules found no polar word in, `overruled` the rules' side, or `found` an aspect the rules missed.
   */
  learned?: "filled" | "overruled" | "found";
  /**
   * The clause names the aspect only by a condition or neutral term, or a practitioner's name ("I
   * came in with sciatica"): without a polar word the rules read it as why someone came, neutral.
   */
  byCondition?: boolean;
  /**
   * The learned polarity model leaned to another side than the rules' polar word, without being
   * sure enough to overrule it: the reading stands, but it is no quote a visitor should trust.
   */
  disputed?: boolean;
  /** The words credited to the aspect as written, each marked + or - by its value: `--explain` shows them. */
  words: string[];
  /**
   * Its only word rated the aspect adequate, no more ("The waiting room is fine."), or it is a
   * drawback the next clause puts up with ("a block away, but that's okay": `"put up with"`):
   * neutral, and no model or rating gives it a side (faint-verdicts.ts).
   */
  faint?: boolean | "put up with";
  /** A construction (a delay, an ability: constructions.ts) gave the side, not an opinion word. */
  shape?: boolean;
  /**
   * The learned polarity model read another side than the rules: which, how sure, and how sure it
   * had to be to win (learned-reading.ts); `--explain` says which won and why.
   */
  model?: ModelVerdict;
}

/** One clause's reading of one aspect, with the sentence it came from (for examples). */
export interface AspectMention {
  aspect: number;
  sentence: string;
  sentenceIndex: number;
  score: number;
  /** Where the clause lies in `sentence`: character offsets, start inclusive, end exclusive. */
  span: [start: number, end: number];
  /**
   * Whether the clause is explicit evidence a visitor may be shown as a quote (quotes.ts): a polar
   * word of a clause naming its own aspects was credited to the aspect, and the rating did not break a tie.
   */
  confident: boolean;
}

/** Puts `reading` into a clause's readings in place of any of its aspect, keeping them in aspect order. */
export function putReading(found: AspectReading[], reading: AspectReading): void {
  const rest = found.filter((r) => r.aspect !== reading.aspect);
  rest.push(reading);
  rest.sort((a, b) => a.aspect - b.aspect);
  found.splice(0, found.length, ...rest);
}
