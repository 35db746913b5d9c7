import { compileTerms, type TermMatcher } from "./aspects.ts";
import type { AspectDefinition, SentimentLexicon } from "./content-schema.ts";
import type { Analyzer } from "./nlp.ts";

/** The domain lexicon (sentiment.yaml, with the aspects' neutral terms) compiled into one matcher. */

export interface CompiledLexicon {
  matcher: TermMatcher;
  /** Aspect index of each condition entry, by group - FIRST_CONDITION. */
  conditionAspects: number[];
  conditionWeak: boolean[];
  /** Per condition entry: adjectives before its terms are opinions, not symptom descriptions. */
  conditionJudged: boolean[];
}

// The matcher's groups; group 4 holds the neutralised words: being covered by a span is what silences them.
export const [POSITIVE, NEGATIVE, OUTCOME_POSITIVE, OUTCOME_NEGATIVE, FIRST_CONDITION] = [0, 1, 2, 3, 5];

/** `aspects`: the aspects of aspects.yaml; their `neutral_terms` are neutralised like `neutral`. */
export function compileLexicon(
  lexicon: SentimentLexicon,
  aspects: readonly AspectDefinition[],
  termForms: Analyzer["termForms"],
): CompiledLexicon {
  const aspectIds = aspects.map((a) => a.id);
  const groups: string[][] = [
    lexicon.words.positive,
    lexicon.words.negative,
    lexicon.outcomes.positive,
    lexicon.outcomes.negative,
    [...lexicon.neutral, ...aspects.flatMap((a) => a.neutral_terms)],
    ...lexicon.conditions.map((c) => c.terms),
  ];
  return {
    matcher: compileTerms(groups, termForms, true),
    conditionAspects: lexicon.conditions.map((c) => aspectIds.indexOf(c.aspect)),
    conditionWeak: lexicon.conditions.map((c) => c.needs_evidence),
    conditionJudged: lexicon.conditions.map((c) => c.adjectives_judge),
  };
}
