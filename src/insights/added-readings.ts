import { clauseScore, WORD_WEIGHT } from "./attribute.ts";
import type { AspectDefinition, SentimentLexicon } from "./content-schema.ts";
import { fewSpaces } from "./few-spaces.ts";
import { littleAmount } from "./low-price.ts";
import { moneySpent } from "./money-spent.ts";
import { shortTrip } from "./nearby.ts";
import type { Clause } from "./nlp.ts";
import { type AspectReading, putReading } from "./readings.ts";

/** A construction that adds a reading of its own: for which aspect, of which side, and where the clause tells it (-1: nowhere). */
interface AddedReading {
  aspect: string | undefined;
  side: 1 | -1;
  /** Read from a construction, so weaker evidence than a word where the writer judges how much is too much. */
  shape: boolean;
  at: (clause: Clause, found: readonly AspectReading[]) => number;
}

/**
 * The constructions that add a reading of their own to a clause once its words are read, each
 * where the clause reads no side of its own for that aspect, one word's weight: money spent for
 * nothing (money-spent.ts), a short trip to the practice (nearby.ts), a little amount (low-price.ts),
 * room to park for a few cars (few-spaces.ts).
 */
export function compileAddedReadings(
  lexicon: SentimentLexicon,
  aspects: readonly AspectDefinition[],
): ((clause: Clause, found: AspectReading[]) => void)[] {
  const index = (id: string | undefined) => aspects.findIndex((a) => a.id === id);
  const result = index(lexicon.abilities?.aspect);
  const poorResult = (found: readonly AspectReading[]) =>
    found.some((r) => r.aspect === result && r.polar && r.score < 0 && !r.absent);
  const constructions: AddedReading[] = [
    // Money spent beside a poor result of the treatment ("six hundred dollars later, my shoulder still clicks").
    { aspect: lexicon.spending, side: -1, shape: true, at: (c, found) => (poorResult(found) ? moneySpent(c) : -1) },
    // A trip of minutes is near, said in so many words as "convenient" is: no weaker than a word.
    { aspect: lexicon.nearby, side: 1, shape: false, at: shortTrip },
    { aspect: lexicon.spending, side: 1, shape: true, at: littleAmount },
    { aspect: lexicon.nearby, side: -1, shape: true, at: fewSpaces },
  ];
  return constructions.map(({ aspect: id, side, shape, at }) => {
    const aspect = index(id);
    return (clause, found) => {
      if (aspect < 0 || found.some((r) => r.aspect === aspect && r.polar)) return;
      const i = at(clause, found);
      if (i < 0) return;
      const words = [`${clause.tokens.values[i]}${side > 0 ? "+" : "-"}`];
      const reading = { aspect, score: clauseScore(side * WORD_WEIGHT), polar: true, words };
      putReading(found, shape ? { ...reading, shape: true } : reading);
    };
  });
}
