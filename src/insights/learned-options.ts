/**
 * How loudly the learned models speak where learned-reading.ts lets them: the probability each of
 * their answers needs, chosen on the validation sets (docs/insights.md).
 */

/** Score given to a side the polarity model chose: as strong as a contrast read into a clause. */
export const LEARNED_SCORE = 0.3;

export interface LearnedOptions {
  /** The polarity model's probability for a side at which a clause without polar words takes it. */
  polarityConfidence: number;
  /** The aspect model's probability at which a sentence is taken to discuss an aspect. */
  aspectConfidence: number;
  /**
   * The probability at which the polarity model overrules a rule's side, in a clause about one
   * aspect only (a clause about two may judge them differently).
   */
  overrideConfidence: number;
  /**
   * Below this probability of the aspect model, a sentence is taken not to discuss an aspect the
   * rules found in it (a term used in passing: "writing this in the parking lot").
   */
  vetoBelow: number;
  /**
   * Below this probability of the confirm model (aspect-confirm.ts), a sentence the rules read an
   * aspect in is taken not to discuss it: the rules' finds are right about four times in five, so it
   * vetoes only where it finds the aspect clearly (1.5 to 1) more likely named in passing than
   * discussed ("…other chiropractors, so I'm going elsewhere" read 0.49, and is meant).
   */
  confirmBelow: number;
  /**
   * The probability at which a clause that names the aspect only by a condition ("After the fall I
   * could hardly climb the stairs": why someone came) takes a side: higher than for other clauses,
   * since the rules read such a clause as neutral on purpose and a wrong side there is the misread
   * a visitor notices most (0.827 against 0.830 on the validation sets).
   */
  conditionConfidence: number;
  /**
   * The probability at which the review model gives a side to an aspect that no clause of a review
   * of three sentences or more reads a side for (review-verdict.ts): the injury told before the
   * visits is no outcome, and a review that never says how the treatment went has told none.
   */
  unjudgedConfidence: number;
  /**
   * The aspect model's probability, for the sentence, below which a rule's explicit reading is kept
   * but not shown as a quote.
   */
  quoteAspectConfidence: number;
  /**
   * The probability at which the polarity model overrules explicit evidence of the rules (a
   * lexicon word, all of one side, not read from a construction or a contrast: "works fine",
   * "rushed"): stronger evidence than the rules' is needed to overrule it.
   */
  explicitConfidence: number;
  /**
   * In a review of one or two stars whose other sentences complain, the probability at which the
   * polarity model, with the review around the clause, overrules explicit praise without the
   * clause's words alone: sarcasm ("Wow, what a great deal") and praise taken back ("felt amazing
   * walking out, lasted til dinner"), not praise followed by a "but". Praise only: a complaint in a
   * 4- or 5-star review is usually meant (docs/insights.md).
   */
  ironyConfidence: number;
  /**
   * How much a rule's reading the polarity model doubts (`disputed`) counts in the review's score
   * for the aspect, against 1 for any other clause.
   */
  disputedWeight: number;
}

export const LEARNED_DEFAULTS: LearnedOptions = {
  polarityConfidence: 0.4,
  aspectConfidence: 0.4,
  overrideConfidence: 0.4,
  vetoBelow: 0.2,
  confirmBelow: 0.4,
  conditionConfidence: 0.7,
  unjudgedConfidence: 0.9,
  quoteAspectConfidence: 0.25,
  explicitConfidence: 0.5,
  ironyConfidence: 0.7,
  disputedWeight: 0.25,
};
